// The ranked play page: join a variant's queue and open the table once seated, in every
// tab of the player that shows this page.  The page's socket keeps the place in the queue
// and brings the queue's state (and the seating, at once); while it is not open the page
// polls the REST queue instead, which keeps the place too.
import { api, TableSocket } from "./net.js";

const texts = JSON.parse(document.getElementById("ranked-texts").textContent);
const status = document.getElementById("queue-status");
const error = document.getElementById("queue-error");
const leave = document.getElementById("queue-leave");
// The button's box, shown while queued (a .button's display would override its own hidden).
const controls = document.getElementById("queue-controls");
const POLL_MS = 3000;
let timer = null;
// The table this tab is on its way to: the socket's beat, its push and a poll may each
// say "seated"; a second navigation would abort the first.
let going = null;

function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
}

function showError(e) {
  error.hidden = !e;
  error.textContent = e ? e.detail : "";
}

function show(q) {
  if (!q) {
    status.textContent = texts.idle;
    controls.hidden = true;
    return;
  }
  if (q.room) {
    status.textContent = texts.seated;
    if (going !== q.room) {
      going = q.room;
      clearTimeout(timer);
      window.location.assign(`/rooms/${q.room}/`);
    }
    return;
  }
  status.textContent = fill(texts.waiting, {
    variant: texts.variants[q.variant] || q.variant,
    n: q.players_queued,
    s: q.waited_seconds,
  });
  controls.hidden = false;
}

const socket = new TableSocket("/ws/play/", {
  onMessage: (msg) => {
    if (msg.t === "queue") show(msg.d);
  },
  onStatus: (state) => {
    clearTimeout(timer);
    if (state !== "connected") timer = setTimeout(poll, POLL_MS);
  },
});

/** The queue's state now: from the socket if it is open, else by a poll. */
function refresh() {
  if (!socket.send({ t: "sync" })) poll();
}

async function poll() {
  clearTimeout(timer);
  if (socket.open) return;
  try {
    const q = await api("GET", "/api/ranked/queue/");
    show(q);
    if (!q.room) timer = setTimeout(poll, POLL_MS);
  } catch (e) {
    if (e.status === 404) show(null);
    else timer = setTimeout(poll, POLL_MS);
  }
}

for (const button of document.querySelectorAll(".queue-join")) {
  button.addEventListener("click", async () => {
    showError(null);
    const body = { variant: button.dataset.variant };
    if (document.getElementById("fill-bots").checked) {
      body.bots_after = Number(document.getElementById("fill-seconds").value);
    }
    try {
      await api("POST", "/api/ranked/queue/", body);
      refresh();
    } catch (e) {
      showError(e);
    }
  });
}

leave.addEventListener("click", async () => {
  clearTimeout(timer);
  await api("DELETE", "/api/ranked/queue/");
  show(null);
});

if (status) {
  poll();
  socket.connect();
}
