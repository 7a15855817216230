import { pgEnum } from 'drizzle-orm/pg-core';
import {
  BUTTON_STYLES,
  CONTENT_SECTIONS,
  DOCUMENT_CATEGORIES,
  FEATURE_SECTIONS,
  INSIGHT_CATEGORIES,
  OUTBOX_STATUSES,
  PUBLISH_JOB_STATUSES,
  SUBMISSION_STATUSES,
  TEMPLATE_TYPES,
  UPLOAD_KINDS,
  USER_ROLES,
} from '#shared/constants.ts';

export const contentSection = pgEnum('content_section', CONTENT_SECTIONS);
export const buttonStyle = pgEnum('button_style', BUTTON_STYLES);
export const featureSection = pgEnum('feature_section', FEATURE_SECTIONS);
export const insightCategory = pgEnum('insight_category', INSIGHT_CATEGORIES);
export const documentCategory = pgEnum('document_category', DOCUMENT_CATEGORIES);
export const submissionStatus = pgEnum('submission_status', SUBMISSION_STATUSES);
export const templateType = pgEnum('template_type', TEMPLATE_TYPES);
export const userRole = pgEnum('user_role', USER_ROLES);
export const outboxStatus = pgEnum('outbox_status', OUTBOX_STATUSES);
export const publishJobStatus = pgEnum('publish_job_status', PUBLISH_JOB_STATUSES);
export const uploadKind = pgEnum('upload_kind', UPLOAD_KINDS);
