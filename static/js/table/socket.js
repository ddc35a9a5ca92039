// The table's socket: its status in the header, and the one handler its messages go to.
import { TableSocket } from "../net.js";
import { $, toast } from "./ui.js";
import { boot, S, table } from "./state.js";

let onMessage = () => {};

export const socket = new TableSocket(boot.ws, {
  // During a hand, and after it until its settlement has arrived.
  expectsMessages: () => {
    const { state, settled } = table;
    return Boolean(state && (state.phase !== "ended" || !settled || settled.hand !== state.hand));
  },
  onStatus: (status, code) => {
    setConn(status);
    if (code === 4403 || code === 4404) toast(S.offline);
  },
  onMessage: (msg) => {
    try {
      onMessage(msg);
    } catch (e) {
      console.error(e);
    }
  },
});

function setConn(status) {
  const c = $("#conn");
  c.className = `conn conn-${status}`;
  c.dataset.status = status;
  c.textContent = S[status] || status;
}

/** Open the socket; every message it brings goes to ``handler``. */
export function connect(handler) {
  onMessage = handler;
  socket.connect();
}

/** Ask the server for a full snapshot of the table. */
export function sync() {
  return socket.send({ t: "sync" });
}
