/** Account tab (SPEC 2.15): owned by the accounts work; the shell lazy-loads this module. */
export function AccountTab() {
  return <p>Account settings are loading…</p>;
}
export default AccountTab;
