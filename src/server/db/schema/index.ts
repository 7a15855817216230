export * from './enums';
export * from './auth';
export * from './content';
export * from './insights';
export * from './documents';
export * from './uploads';
export * from './leads';
export * from './system';
