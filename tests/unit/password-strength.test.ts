import { describe, expect, it } from 'vitest';
import { passwordProblem } from '#shared/password-strength.ts';

describe('[SECURITY][PASSWORD] weak new passwords are refused', () => {
  it.each(['password', '12345678', '        ', 'qwertyuiop', 'Password1', 'sterling2026', 'procurement1'])('refuses %j', (pw) => {
    expect(passwordProblem(pw)).toMatch(/^(This password is too easy to guess|Choose a password)/);
  });

  it('refuses the account’s own name or address with a digit or two', () => {
    expect(passwordProblem('janedoe12', ['janedoe', 'jane.doe@example.com'])).not.toBeNull();
    expect(passwordProblem('jane.doe@example.com', ['janedoe', 'jane.doe@example.com'])).not.toBeNull();
  });

  it.each(['correct horse battery staple', 'Tulip-Granite-Voyage-42', 'x7#Qm!v2Lp9$Rz'])('accepts %j', (pw) => {
    expect(passwordProblem(pw, ['janedoe'])).toBeNull();
  });
});
