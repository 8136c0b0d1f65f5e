/**
 * The one <video> the camera's picture plays in. The scanner panel shows it
 * (ScannerPanel appends it where it renders); the camera adapter plays the
 * stream in it and reads frames from it. One camera is open at a time, so
 * one element, made when first asked for.
 */
let video: HTMLVideoElement | null = null;

export function viewfinderVideo(): HTMLVideoElement {
  if (!video) {
    video = document.createElement("video");
    video.className = "scanner__video";
    // Inline and muted: phones otherwise go full screen, or refuse to play without a tap.
    video.muted = true;
    video.playsInline = true;
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
  }
  return video;
}
