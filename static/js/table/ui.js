// Small DOM helpers the table modules share: building elements, toasts, quiet re-renders.
import { boot } from "./state.js";

export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, cls, textContent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (textContent !== undefined) e.textContent = textContent;
  return e;
}

export function toast(message, kind = "error") {
  const box = $("#toasts");
  // The same words twice in a row (a double tap) are one toast, not a stack.
  const last = box.lastElementChild;
  if (last && last.textContent === message && !last.classList.contains("toast-out")) return;
  const t = el("div", `toast toast-${kind}`, message);
  t.setAttribute("role", kind === "error" ? "alert" : "status");
  box.append(t);
  setTimeout(() => t.classList.add("toast-out"), 3500);
  setTimeout(() => t.remove(), 4200);
}

/** A server refusal in the reader's language: by its code, else the server's words. */
export function refusal(e) {
  return (boot.errors && boot.errors[e.code]) || e.detail || e.message || e.code;
}

/**
 * Re-render ``box`` by building it afresh off the page, and swap only if something changed:
 * states arrive several times a second while bots play, and replacing a button or a tile
 * between a finger's down and up would swallow the tap.
 */
export function patch(box, build) {
  const fresh = box.cloneNode(false);
  build(fresh);
  const same = fresh.innerHTML === box.innerHTML
    && [...fresh.attributes].every((a) => box.getAttribute(a.name) === a.value)
    && fresh.attributes.length === box.attributes.length;
  if (!same) box.replaceWith(fresh);
}
