// A club page's managers' part: the announcement, "joining needs approval" and the join
// requests (approve / deny).  Writes go through the REST API; its refusals show in the
// page's error box, in the reader's language.
import { api } from "./net.js";

const BOOT = JSON.parse(document.getElementById("clubs-boot").textContent);
const S = BOOT.strings;
const base = `/api/clubs/${BOOT.club_id}`;
const $ = (sel) => document.querySelector(sel);

function showError(e) {
  const box = $("#club-error");
  box.textContent = (S.errors && S.errors[e.code]) || e.detail || e.code || S.error;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

/** Make one API call from ``control`` and show the outcome (the page reloaded), or the
 * refusal with ``undo()`` putting the control back as it was. */
async function write(control, call, undo = () => {}) {
  $("#club-error").hidden = true;
  control.disabled = true;
  try {
    await call();
    location.reload();
  } catch (e) {
    showError(e);
    undo();
    control.disabled = false;
  }
}

const form = $("#announcement-form");
if (form) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = form.announcement.value;
    write(form.querySelector("button[type=submit]"), () => api("PATCH", `${base}/`, { announcement: text }));
  });
}

const approval = $("#join-needs-approval");
if (approval) {
  approval.addEventListener("change", () => {
    const wanted = approval.checked;
    write(
      approval,
      () => api("PATCH", `${base}/`, { join_needs_approval: wanted }),
      () => { approval.checked = !wanted; },
    );
  });
}

for (const b of document.querySelectorAll("#join-requests button[data-decision]")) {
  const id = b.closest("[data-request-id]").dataset.requestId;
  b.addEventListener("click", () => {
    if (b.dataset.decision === "deny" && !window.confirm(S.confirm_deny)) return;
    write(b, () => api("POST", `${base}/join-requests/${id}/${b.dataset.decision}/`));
  });
}
