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
  const fields = [
    { label: "Email", type: "email", autoComplete: "username", inputMode: "email", value: email, onChange: onEmail },
    { label: "Password", type: "password", autoComplete: "current-password", inputMode: undefined, value: password, onChange: onPassword },
  ] as const;
  return (
    <>
      {fields.map(({ label, type, autoComplete, inputMode, value, onChange }) => (
        <label key={type} className={classes.field}>
          <span className={classes.label}>{label}</span>
          <input
            className={classes.input}
            type={type}
            name={type}
            autoComplete={autoComplete}
            inputMode={inputMode}
            required
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        </label>
      ))}
    </>
  );
}
