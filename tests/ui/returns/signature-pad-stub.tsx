export const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M 1 1 L 9 9" stroke="black"/></svg>';

/** The pad as the screens use it: "Sign" draws a signature (reported as SVG), "Clear" removes it. */
export function SignaturePadField({ svg, onChange }: { svg: string | null; onChange: (svg: string | null) => void }) {
  return (
    <div>
      <p data-testid="pad">{svg ? "signed" : "empty"}</p>
      <button type="button" onClick={() => onChange(SVG)}>
        Sign
      </button>
      <button type="button" onClick={() => onChange(null)}>
        Clear
      </button>
    </div>
  );
}
