/** How a screen styles its labelled fields (the courier app's and the console's class names). */
export interface FieldClasses {
  field: string;
  label?: string;
  input?: string;
}

interface CredentialFieldsProps {
  email: string;
  password: string;
  onEmail: (email: string) => void;
  onPassword: (password: string) => void;
  classes: FieldClasses;
}

/**
 * The email and password of a login form (the courier's and the dispatch
 * console's): labelled fields the browser's password manager recognises
 * (username / current-password).
 */
export function CredentialFields({ email, password, onEmail, onPassword, classes }: CredentialFieldsProps) {
  return (
    <>
      <label className={classes.field}>
        <span className={classes.label}>Email</span>
        <input
          className={classes.input}
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          required
          value={email}
          onChange={(event) => onEmail(event.target.value)}
        />
      </label>
      <label className={classes.field}>
        <span className={classes.label}>Password</span>
        <input
          className={classes.input}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => onPassword(event.target.value)}
        />
      </label>
    </>
  );
}
