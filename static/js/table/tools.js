// The table's tools: 托管 (let the server play this seat), the standing orders and sounds kept
// in this browser, the tile index, leaving the room, and a note when a second tab is open.
import { api } from "../net.js";
import { setTileIndex, tileIndexOn } from "../tiles.js";
import { setSound, sound } from "../sound.js";
import { boot, myRoomSeat, prefs, S, savePrefs, table } from "./state.js";
import { $, refusal, toast } from "./ui.js";
import { call } from "./calls.js";
import { renderState } from "./board.js";
import { assist } from "./actions.js";

export async function setAuto(on) {
  try {
    table.room = await api("POST", `/api/rooms/${boot.room_id}/auto/`, { auto: on });
    call("renderRoom");
    if (table.state) renderState();
  } catch (e) {
    toast(refusal(e));
  }
}

export function renderTools() {
  const b = $("#btn-auto");
  const me = myRoomSeat();
  b.hidden = !me || table.room.status === "finished";
  const on = Boolean(me && me.auto);
  b.setAttribute("aria-pressed", String(on));
  b.classList.toggle("is-on", on);
}

export function installTools() {
  $("#btn-leave").addEventListener("click", async () => {
    if (!window.confirm(S.leave_confirm)) return;
    try {
      await api("POST", `/api/rooms/${boot.room_id}/leave/`);
      location.href = boot.lobby_url;
    } catch (e) {
      toast(refusal(e));
    }
  });
  $("#btn-auto").addEventListener("click", () => {
    const me = myRoomSeat();
    if (me) setAuto(!me.auto);
  });
  for (const [id, key] of [["#opt-auto-win", "autoWin"], ["#opt-auto-pass", "autoPass"],
    ["#opt-sound", "sound"]]) {
    const box = $(id);
    box.checked = Boolean(prefs[key]);
    box.addEventListener("change", () => {
      prefs[key] = box.checked;
      savePrefs();
      setSound(prefs.sound);
      if (key === "sound" && box.checked) sound("turn"); // so one hears what was switched on
      if (table.state) assist(null);
    });
  }
  setSound(prefs.sound);
  const indexBox = $("#opt-tile-index");
  indexBox.checked = tileIndexOn();
  indexBox.addEventListener("change", () => setTileIndex(indexBox.checked));
  // One open menu at a time; a tap elsewhere closes it.
  document.addEventListener("click", (ev) => {
    for (const d of document.querySelectorAll(".tool-menu[open]")) {
      if (!d.contains(ev.target)) d.open = false;
    }
  });

  // Two tabs of one browser at one seat both act for it: say so.
  if ("BroadcastChannel" in window && boot.seat !== null) {
    const tabs = new BroadcastChannel(`mh-room-${boot.room_id}`);
    const me = Math.random().toString(36).slice(2);
    tabs.onmessage = (ev) => {
      if (!ev.data || ev.data.from === me) return;
      $("#tabs-note").hidden = false;
      if (ev.data.hello) tabs.postMessage({ from: me });
    };
    tabs.postMessage({ from: me, hello: true });
  }
}
