// The table page. It renders the server's view of the hand and offers exactly the server's
// `legal` actions, sent back unchanged; it holds no rules.
//
// Its modules, under table/: state (the one shared object and the questions asked of it),
// socket and connection (messages in, versions, resync), board (plates, pools, centre),
// hand (the seat's tiles), actions (buttons, taps, keys, standing orders), result (the
// dialog at a hand's end), room (header, seat list), timers, tools, events (call-outs),
// variant_ui (what only some rule sets show), summary (the 大结算 when the match is over) and
// talk (the dissolve vote and quick phrases). Their imports point one way (hand < actions <
// board < tools < room); the few calls up that order go through calls.js, whose functions
// this file provides. None calls another's functions at load: this file starts the page once
// all of them are defined.
import { setTileNames } from "./tiles.js";
import { S, tileName } from "./table/state.js";
import { $ } from "./table/ui.js";
import { connect } from "./table/socket.js";
import { handle } from "./table/connection.js";
import { installKeys, onTileClick } from "./table/actions.js";
import { provide } from "./table/calls.js";
import { renderRoom } from "./table/room.js";
import { installResult } from "./table/result.js";
import { startTimers } from "./table/timers.js";
import { installTools, setAuto } from "./table/tools.js";
import { installSummary } from "./table/summary.js";
import { installTalk } from "./table/talk.js";

setTileNames(tileName);
provide({ onTileClick, renderRoom, setAuto });
installResult();
startTimers();
installKeys();
installTools();
installSummary();
installTalk();

$("#my-hand").title = S.keys;
connect(handle);
