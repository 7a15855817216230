import { Fragment } from 'react';

/**
 * An e-mail address that, when it must wrap, wraps before its "@" or a dot (as style guides advise
 * for addresses) or after a hyphen (where browsers wrap anyway), not in the middle of a name.
 */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
