import { useEffect, useRef, useState } from "react";
import type SignaturePad from "signature_pad";
import { ActionButton } from "./ActionButton.tsx";
import "./signature-pad.css";

/** Spec §9: the pad is the window's width minus 36, 200 high, black pen. */
export const PAD_MARGIN = 36;
export const PAD_HEIGHT = 200;
const PEN_COLOR = "black";

/**
 * The window's width: on a phone innerWidth grows with anything wider than the
 * screen (the layout viewport stretches to fit), so the narrower of it and the
 * document's client width is the one a canvas must fit.
 */
const windowWidth = () => Math.min(window.innerWidth, document.documentElement.clientWidth || window.innerWidth);
const padWidth = () => Math.max(200, windowWidth() - PAD_MARGIN);

/** Sizes the canvas in CSS pixels and backs it with device pixels, so strokes are sharp and toSVG's viewBox is right. */
function sizeCanvas(canvas: HTMLCanvasElement): void {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const width = padWidth();
  canvas.style.width = `${width}px`;
  canvas.style.height = `${PAD_HEIGHT}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(PAD_HEIGHT * ratio);
  canvas.getContext("2d")?.scale(ratio, ratio);
}

const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * The signature pad (signature_pad, loaded with the signature step only). Each
 * finished stroke reports the drawing as SVG (signature.svg); Clear reports
 * null. A signature kept from before a reload is shown as it was drawn until
 * the courier clears it.
 */
export function SignaturePadField({
  svg,
  onChange,
  label = "Signature pad: the recipient signs here with a finger",
}: {
  svg: string | null;
  onChange: (svg: string | null) => void;
  /** Who signs: the recipient at a delivery, pharmacy staff at a return. */
  label?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  });
  // A signature restored from storage cannot be drawn on further (the pad holds strokes, not SVG).
  const [kept, setKept] = useState(() => svg != null);
  const [failed, setFailed] = useState(false);
  // The canvas is inert until signature_pad has loaded: a stroke before then would be lost.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (kept) return;
    let cancelled = false;
    let instance: SignaturePad | null = null;
    const element = canvas.current!;
    const resize = () => {
      if (!instance) return;
      const strokes = instance.toData();
      sizeCanvas(element);
      instance.fromData(strokes);
    };
    import("signature_pad")
      .then(({ default: Pad }) => {
        if (cancelled) return;
        sizeCanvas(element);
        instance = new Pad(element, { penColor: PEN_COLOR });
        instance.addEventListener("endStroke", () => report.current(instance!.isEmpty() ? null : instance!.toSVG()));
        pad.current = instance;
        window.addEventListener("resize", resize);
        setReady(true);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      window.removeEventListener("resize", resize);
      instance?.off();
      pad.current = null;
      setReady(false);
    };
  }, [kept]);

  const clear = () => {
    pad.current?.clear();
    setKept(false);
    report.current(null);
  };

  return (
    <div className="pad">
      {kept && svg ? (
        <img className="pad__kept" src={svgDataUrl(svg)} alt="The recipient's signature" width={padWidth()} height={PAD_HEIGHT} />
      ) : (
        <canvas
          ref={canvas}
          className="pad__canvas"
          role="img"
          aria-label={label}
          aria-busy={!ready}
        />
      )}
      {!kept && !ready && !failed && (
        <p className="muted" role="status">
          Loading the signature pad…
        </p>
      )}
      {failed && (
        <p className="notice notice--error" role="alert">
          The signature pad could not be loaded. Please refresh and try again.
        </p>
      )}
      <ActionButton variant="secondary" block={false} className="pad__clear" onClick={clear}>
        Clear
      </ActionButton>
    </div>
  );
}
