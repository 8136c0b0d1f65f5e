import { photoProofMachine } from "../../../machines/photo-proof.machine.ts";
import { defineDemo } from "../demo-kit.ts";

/** A photo as the phone's shrinker hands it over: a real (tiny) JPEG. */
const PHOTO = {
  data_url:
    "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  media_type: "image/jpeg",
  bytes: 160,
  width: 1,
  height: 1,
  latitude: null,
  longitude: null,
} as const;

export default defineDemo({
  machine: photoProofMachine,
  summary:
    "Order 4107 left on the porch with nobody to sign; the pharmacy requires a photo of the drop-off " +
    "(pod_photo_required), and none has been taken yet.",
  input: { photo: null, required: true },
  standIns: {},
  events: [{ type: "PHOTO_TAKEN", photo: { ...PHOTO } }, { type: "PHOTO_REMOVED" }, { type: "CONTINUE" }, { type: "BACK" }],
});
