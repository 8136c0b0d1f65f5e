/**
 * The 'Pharmacy' select of the screens that work on one pharmacy's orders
 * (Import, Returns): a dispatcher chooses any, a pharmacist's is fixed to
 * theirs (the screen disables it). `placeholder`, when given, is an empty
 * first choice saying why none is chosen yet.
 */
export function PharmacySelect({
  pharmacies,
  pharmacyId,
  disabled,
  placeholder,
  inline = false,
  onSelect,
}: {
  pharmacies: { id: number; name: string }[];
  pharmacyId: number | null;
  disabled: boolean;
  placeholder: string | null;
  inline?: boolean;
  onSelect: (pharmacyId: number) => void;
}) {
  return (
    <label className={inline ? "console-field console-field--inline" : "console-field"}>
      <span>Pharmacy</span>
      <select value={pharmacyId ?? ""} disabled={disabled} onChange={(event) => onSelect(Number(event.target.value))}>
        {placeholder !== null && <option value="">{placeholder}</option>}
        {pharmacies.map((pharmacy) => (
          <option key={pharmacy.id} value={pharmacy.id}>
            {pharmacy.name}
          </option>
        ))}
      </select>
    </label>
  );
}
