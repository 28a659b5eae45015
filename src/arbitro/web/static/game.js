// The game page: a player's, the arbiter's or a spectator's view of one game.
// The server keeps the clocks; this page only shows them, ticking from the last state it got.
import {Chessboard, COLOR, INPUT_EVENT_TYPE} from "./vendor/cm-chessboard/src/Chessboard.js"
import {Markers} from "./vendor/cm-chessboard/src/extensions/markers/Markers.js"

const T = window.ARBITRO_TEXTS
const root = document.getElementById("game")
const mode = root.dataset.mode
const lang = root.dataset.lang
const token = location.hash.slice(1)
const spectatorId = root.dataset.spectator
let gameId = root.dataset.game
let socket = null
let state = null
let receivedAt = 0
let requestId = 0
let board = null
let announcedSeq = -1
let announcedPlies = null
let announcedRunning = null
let announcedPhase = "null/false"

// Blind mode (Appendix F), remembered on this device: moves announced in the spoken words of
// a style, and commands in the move box. The server writes every word; this page only speaks.
const blind = {on: false, style: lang === "es" ? "es" : "en"}

const $ = (id) => document.getElementById(id)
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "")
const sideName = (color) => (color === "white" ? T.white : T.black)

function announce(text) {
  // aria-atomic: the whole sentence is read; clearing first makes a repeated text heard again.
  const region = $("announcer")
  region.textContent = ""
  setTimeout(() => { region.textContent = text }, 30)
}

function alertError(error) {
  $("alert").textContent = error ? (error.full || error.message) : ""
}

function clockText(ms) {
  if (ms == null) return "–:––"
  const total = Math.max(0, ms)
  const tenths = Math.floor(total / 100) % 10
  const seconds = Math.floor(total / 1000)
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60
  const mm = h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`
  const text = `${mm}:${String(s).padStart(2, "0")}`
  return total < 20000 ? `${text}.${tenths}` : text
}

function remaining(color) {
  const s = state && state.state
  if (!s || !s.clock) return null
  let ms = s.clock[color]
  if (s.running && s.to_move === color) ms -= performance.now() - receivedAt
  return Math.max(0, ms)
}

function tick() {
  for (const color of ["white", "black"]) {
    const el = $(`time-${color}`)
    const text = clockText(remaining(color))
    if (el.textContent !== text) el.textContent = text
    const s = state && state.state
    $(`clock-${color}`).classList.toggle("running", !!(s && s.running && s.to_move === color))
    $(`clock-${color}`).classList.toggle("flag", !!(s && s.flags && s.flags[color] != null))
  }
  requestAnimationFrame(tick)
}

function send(command) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return
  alertError(null)
  socket.send(JSON.stringify({id: ++requestId, ...command}))
}

function button(label, command, parent, options = {}) {
  const b = document.createElement("button")
  b.type = "button"
  b.textContent = label
  b.addEventListener("click", () => {
    if (options.confirm && !window.confirm(options.confirm)) return
    send(typeof command === "function" ? command() : command)
  })
  parent.appendChild(b)
  return b
}

function myColor() {
  return state && (state.role === "white" || state.role === "black") ? state.role : null
}

let actionsKey = ""

function renderActions() {
  const box = $("actions")
  const s = state.state
  const role = state.role
  const over = s.result !== "*"
  const started = state.started
  // Rebuild the buttons only when they change, so that none moves under a pointer or focus.
  const key = JSON.stringify([over, started, role, s.draw_offer, state.setup.board, !!s.clock])
  if (key === actionsKey) return
  actionsKey = key
  box.replaceChildren()
  if (over) return
  if (!started && (role === "white" || role === "arbiter")) button(T.start, {do: "start"}, box)
  if (role !== "white" && role !== "black") return
  if (state.setup.board === "physical") button(T.press, {do: "press"}, box)
  if (s.draw_offer && s.draw_offer !== role) {
    button(T.accept, {do: "accept-draw"}, box)
    button(T.decline, {do: "decline-draw"}, box)
  } else if (!s.draw_offer) {
    button(T.offer, {do: "offer-draw"}, box)
  }
  const intended = () => $("move-input").value.trim() || undefined
  button(T.claim_threefold, () => ({do: "claim", claim: "threefold", move: intended()}), box)
  button(T.claim_fifty, () => ({do: "claim", claim: "fifty-moves", move: intended()}), box)
  if (s.clock) button(T.claim_time, {do: "claim", claim: "time"}, box)
  if (state.setup.board === "physical") button(T.claim_illegal, {do: "claim", claim: "illegal-move"}, box)
  button(T.resign, {do: "resign"}, box, {confirm: T.confirm_resign})
}

function tool(parent, label, fields, build) {
  const form = document.createElement("form")
  form.className = "tool"
  const title = document.createElement("span")
  title.textContent = label
  form.appendChild(title)
  const inputs = {}
  for (const [name, kind, options] of fields) {
    const id = `arb-${label.replace(/\W+/g, "-")}-${name}`
    const lab = document.createElement("label")
    lab.htmlFor = id
    lab.textContent = options.label
    let input
    if (kind === "select") {
      input = document.createElement("select")
      for (const [value, text] of options.choices) {
        const o = document.createElement("option")
        o.value = value
        o.textContent = text
        input.appendChild(o)
      }
    } else {
      input = document.createElement("input")
      input.type = kind
      input.size = 6
    }
    input.id = id
    inputs[name] = input
    form.append(lab, input)
  }
  const go = document.createElement("button")
  go.type = "submit"
  go.textContent = T.apply
  form.appendChild(go)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const values = Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => [k, v.type === "checkbox" ? v.checked : v.value]))
    send(build(values))
  })
  parent.appendChild(form)
}

function renderArbiter() {
  const box = $("arbiter-tools")
  if (state.role !== "arbiter") { box.hidden = true; return }
  box.hidden = false
  if (box.dataset.built) return
  box.dataset.built = "1"
  const players = {label: T.player, choices: [["white", T.white], ["black", T.black]]}
  const row = document.createElement("div")
  row.className = "tool"
  button(T.stop, {do: "stop-clocks"}, row)
  button(T.restart, {do: "restart-clocks"}, row)
  box.appendChild(row)
  tool(box, T.add_time, [["player", "select", players], ["seconds", "number", {label: T.seconds}]],
    (v) => ({do: "arbiter", action: "add-time", player: v.player, seconds: Number(v.seconds)}))
  tool(box, T.set_clock, [["white", "number", {label: T.white}], ["black", "number", {label: T.black}]],
    (v) => ({do: "arbiter", action: "set-clock", white: Number(v.white), black: Number(v.black)}))
  const kinds = [["warning", "warning"], ["time-added-to-opponent", "+ time"], ["time-deducted", "− time"],
                 ["loss", "loss"], ["expulsion", "expulsion"]]
  tool(box, T.penalty, [["player", "select", players], ["penalty", "select", {label: T.penalty, choices: kinds}],
                        ["seconds", "number", {label: T.seconds}]],
    (v) => ({do: "arbiter", action: "penalty", player: v.player, penalty: v.penalty,
             seconds: v.seconds ? Number(v.seconds) : undefined}))
  tool(box, T.decide, [["decision", "select", {label: T.decide, choices: [["draw", T.uphold], ["reject", T.reject]]}]],
    (v) => ({do: "arbiter", action: "decide", decision: v.decision}))
  tool(box, T.restore, [["ply", "number", {label: "ply"}]],
    (v) => ({do: "arbiter", action: "restore", ply: Number(v.ply)}))
  tool(box, T.declare, [["result", "select", {label: T.declare, choices: [["1-0", "1-0"], ["0-1", "0-1"], ["1/2-1/2", "½-½"]]}]],
    (v) => ({do: "arbiter", action: "result", result: v.result, reason: "arbiter"}))
  // Appendix A: adjourn (the player to move seals), then resume with the players present.
  tool(box, T.adjourn, [["date", "text", {label: T.date}], ["time", "text", {label: T.time}],
                        ["place", "text", {label: T.place}]],
    (v) => ({do: "adjourn", date: v.date || undefined, time: v.time || undefined, place: v.place || undefined}))
  tool(box, T.resume, [["white", "checkbox", {label: fill(T.present, {side: T.white})}],
                       ["black", "checkbox", {label: fill(T.present, {side: T.black})}],
                       ["missing", "checkbox", {label: T.envelope_missing}]],
    (v) => ({do: "resume", present: ["white", "black"].filter((c) => v[c]), missing: v.missing || undefined}))
  if (state.spectator) {
    const p = document.createElement("p")
    const a = document.createElement("a")
    a.href = `/watch/${state.spectator}`
    a.textContent = T.spectator_link
    p.appendChild(a)
    box.appendChild(p)
  }
}

function renderMoves() {
  // One item per move number: White's and Black's entries (as written, (=) for a draw offer).
  const list = $("moves")
  list.replaceChildren()
  let item = null
  for (const move of state.moves) {
    const number = Math.ceil(move.ply / 2)
    if (!item || move.color === "white") {
      item = document.createElement("li")
      item.value = number
      list.appendChild(item)
      if (move.color === "black") item.append("… ")
    }
    const span = document.createElement("span")
    span.className = "entry"
    span.textContent = `${move.text}${move.draw_offer ? " (=)" : ""} `
    if (!move.legal) { span.classList.add("illegal"); span.title = T.illegal_marker }
    item.appendChild(span)
  }
  const log = $("log")
  log.replaceChildren()
  for (const event of state.log) {
    const li = document.createElement("li")
    const {at, by, do: what, ...args} = event
    li.textContent = `${clockText(at)} ${by}: ${what} ${Object.values(args).join(" ")}`
    log.appendChild(li)
  }
}

function statusText() {
  const s = state.state
  if (s.result !== "*") {
    const article = s.article ? ` (${fill(T.article, {article: s.article})})` : ""
    return fill(T.game_over, {result: s.result, termination: (s.termination || "").replaceAll("-", " ")}) + article
  }
  if (s.pending === "claim") return T.pending_claim
  if (s.adjournment === "ordered") return fill(T.adjourn_ordered, {side: sideName(s.to_move)})
  if (s.sealed && s.adjournment === "sealed") return T.adjourned
  if (s.sealed) return fill(T.envelope_closed, {side: sideName(state.envelope.sealer === "white" ? "black" : "white")})
  return fill(T.to_move, {side: sideName(s.to_move)})
}

function announceChanges() {
  if (announcedPlies === null) {
    announcedPlies = state.moves.length
    announcedSeq = state.seq
    announcedRunning = state.state.running
    return
  }
  if (state.seq === announcedSeq) return
  const parts = []
  for (const move of state.moves.slice(announcedPlies)) {
    const words = blind.on && move.spoken ? move.spoken[blind.style] : move.text
    parts.push(fill(T.moved, {side: sideName(move.color), move: words}))
    if (move.draw_offer) parts.push(fill(T.draw_offered, {side: sideName(move.color)}))
  }
  const s = state.state
  if (s.draw_offer && !parts.length) parts.push(fill(T.draw_offered, {side: sideName(s.draw_offer)}))
  if (s.result === "*" && s.running !== announcedRunning && announcedRunning !== null) {
    parts.push(s.running ? T.clocks_running : T.clocks_stopped)
  }
  announcedRunning = s.running
  const phase = `${s.adjournment}/${s.sealed}`
  if (phase !== announcedPhase && s.result === "*" && (s.adjournment || announcedPhase !== "null/false")) parts.push(statusText())
  announcedPhase = phase
  for (const color of ["white", "black"]) if (s.flags && s.flags[color] != null) parts.push(fill(T.flag, {side: sideName(color)}))
  if (s.result !== "*") parts.push(statusText())
  announcedPlies = state.moves.length
  announcedSeq = state.seq
  if (parts.length) announce(parts.join(" "))
}

function setupBoard() {
  if (board) return
  board = new Chessboard($("board"), {
    position: state.state.fen,
    orientation: state.orientation === "black" ? COLOR.black : COLOR.white,
    assetsUrl: "/static/vendor/cm-chessboard/assets/",
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 150},
    extensions: [{class: Markers}],
  })
  const color = myColor()
  if (!color) return
  board.enableMoveInput((event) => {
    if (event.type === INPUT_EVENT_TYPE.moveInputStarted) return true
    if (event.type === INPUT_EVENT_TYPE.validateMoveInput) {
      let uci = event.squareFrom + event.squareTo
      const piece = event.piece || ""
      if (piece.endsWith("p") && (event.squareTo[1] === "8" || event.squareTo[1] === "1")) uci += "q"
      send({do: state.setup.board === "physical" ? "move" : "play", move: uci})
      return true
    }
    return true
  }, color === "white" ? COLOR.white : COLOR.black)
}

function render() {
  document.title = `${state.setup.white || T.white} – ${state.setup.black || T.black} · arbitro`
  $("name-white").textContent = state.setup.white || T.white
  $("name-black").textContent = state.setup.black || T.black
  setupBoard()
  board.setPosition(state.state.fen, true)
  // The board is a picture to screen readers: name it after the last move; the move list and
  // the move box are the way to follow and play the game without seeing it.
  const svg = $("board").querySelector("svg")
  if (svg) {
    const last = state.moves[state.moves.length - 1]
    svg.setAttribute("aria-label", last ? fill(T.board_after, {move: last.text}) : T.board_start)
  }
  $("status").textContent = statusText()
  renderActions()
  renderArbiter()
  renderMoves()
  announceChanges()
  $("move-form").hidden = !myColor() || state.state.result !== "*"
  // The player asked to seal writes his move here; it goes into the envelope, not onto the board.
  const sealing = state.state.adjournment === "ordered" && myColor() === state.state.to_move
  $("move-label").textContent = sealing ? T.seal_box : T.move_box
  $("move-send").textContent = sealing ? T.seal : T.send
  $("seal-check").hidden = !sealing
  $("envelope-link").hidden = !state.envelope
  $("envelope-sep").hidden = !state.envelope
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws"
  socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId || "spectator"}?lang=${lang}`)
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify(mode === "spectator" ? {spectator: spectatorId} : {token}))
  })
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data)
    if (data.type === "state") {
      if (data.moves_from) {
        // An update carries only the moves this page lacks (and the last one it has).
        if (!state || data.moves_from > state.moves.length) { send({do: "state"}); return }
        data.moves = state.moves.slice(0, data.moves_from).concat(data.moves)
      }
      state = data
      gameId = data.id
      receivedAt = performance.now()
      $("pgn-link").href = `/api/games/${gameId}/pgn`
      $("sheet-link").href = `/api/games/${gameId}/scoresheet?lang=${lang}`
      $("envelope-link").href = `/api/games/${gameId}/envelope?lang=${lang}`
      render()
    } else if (data.type === "reply" && !data.ok) {
      alertError(data.error)
      announce(data.error.full || data.error.message)
      if (state) board.setPosition(state.state.fen, false)
    } else if (data.type === "error") {
      alertError(data.error)
    }
  })
  socket.addEventListener("close", () => {
    $("status").textContent = T.disconnected
    setTimeout(connect, 1000)
  })
}

$("move-label").textContent = T.move_box
$("move-send").textContent = T.send
$("moves-title").textContent = T.moves
$("log-title").textContent = T.log
$("pgn-link").textContent = T.download_pgn
$("sheet-link").textContent = T.scoresheet
$("envelope-link").textContent = T.envelope_link
$("seal-check").textContent = T.check_seal
$("move-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const text = $("move-input").value.trim()
  if (!text || !state) return
  $("move-input").value = ""
  if (blind.on && await answered(text)) return
  if (state.state.adjournment === "ordered" && myColor() === state.state.to_move) {
    send({do: "seal", move: text})
    return
  }
  send({do: state.setup.board === "physical" ? "move" : "play", move: text})
})

$("seal-check").addEventListener("click", async () => {
  // How the written move reads (A8: an ambiguous or illegal sealed move loses), before sealing.
  const text = $("move-input").value.trim()
  if (!text) return
  const response = await fetch(`/api/games/${gameId}/seal-check?lang=${lang}`, {
    method: "POST",
    headers: {"Content-Type": "application/json", Authorization: `Bearer ${token}`},
    body: JSON.stringify({move: text}),
  })
  const data = await response.json()
  const message = !response.ok ? (data.error.full || data.error.message)
    : data.ok ? [fill(T.seal_reads, {move: data.move}), data.explanation].filter(Boolean).join(" ")
    : data.explanation
  $("alert").textContent = response.ok && data.ok ? "" : message
  $("status").textContent = message
  announce(message)
})

async function answered(text) {
  // In blind mode the server first reads the text as a command ("fila 1", "relojes"...):
  // true when it was one (its answer is spoken), false for a move.
  const query = new URLSearchParams({text, style: blind.style, lang})
  let response, data
  try {
    response = await fetch(`/api/games/${gameId}/read?${query}`, {headers: {Authorization: `Bearer ${token}`}})
    data = await response.json()
  } catch {
    return false
  }
  if (!response.ok) {
    alertError(data.error)
    announce(data.error.full || data.error.message)
    return true
  }
  if (data.command) announce(data.text)
  return !!data.command
}

function remembered(key, fallback) {
  try { return localStorage.getItem(key) ?? fallback } catch { return fallback }
}

function remember(key, value) {
  try { localStorage.setItem(key, value) } catch { /* private mode: the choice lasts this page */ }
}

function setupBlind() {
  const box = $("blind-mode")
  if (!box) return
  const select = $("blind-style")
  blind.on = remembered("arbitro.blind", "0") === "1"
  blind.style = remembered("arbitro.blind-style", blind.style)
  box.checked = blind.on
  select.value = blind.style
  box.addEventListener("change", () => { blind.on = box.checked; remember("arbitro.blind", blind.on ? "1" : "0") })
  select.addEventListener("change", () => { blind.style = select.value; remember("arbitro.blind-style", blind.style) })
}

function setupReconcile() {
  // The arbiter's form for two boards that differ (F2.7, F2.8); the server decides.
  const form = $("reconcile-form")
  if (!form) return
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    const body = {}
    for (const name of ["board_a", "board_b", "sheet_a", "sheet_b"]) body[name] = $(name.replace("_", "-")).value
    const response = await fetch(`/api/games/${gameId}/reconcile?lang=${lang}`, {
      method: "POST",
      headers: {"Content-Type": "application/json", Authorization: `Bearer ${token}`},
      body: JSON.stringify(body),
    })
    const data = await response.json()
    const text = $("reconcile-text")
    text.classList.toggle("error", !response.ok)
    $("reconcile-details").hidden = !response.ok
    if (!response.ok) {
      text.textContent = data.error.full || data.error.message
      return
    }
    text.textContent = `${data.explanation} (${fill(T.article, {article: data.article})})`
    $("reconcile-moves").textContent = data.moves || T.initial_position
    $("reconcile-to-move").textContent = sideName(data.to_move)
    $("reconcile-fen").textContent = data.fen
  })
}
document.addEventListener("keydown", (event) => {
  // "c" (outside the move box) reads both clocks aloud, on request rather than every second.
  if (event.key === "c" && !["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) && state) {
    announce(fill(T.clock_reading, {white: clockText(remaining("white")), black: clockText(remaining("black"))}))
  }
})
const reader = document.createElement("button")
reader.type = "button"
reader.textContent = T.read_clock
reader.addEventListener("click", () => {
  if (state) announce(fill(T.clock_reading, {white: clockText(remaining("white")), black: clockText(remaining("black"))}))
})
document.querySelector(".players").appendChild(reader)
setupBlind()
setupReconcile()
connect()
requestAnimationFrame(tick)
