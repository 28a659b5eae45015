"""Words the browser shows: the presets of the home page and the texts of the game client,
translated on the server (the catalogs hold them) and handed to the page as JSON."""

from __future__ import annotations

from arbitro.i18n import N_, gettext

#: Time controls offered on the home page (any ``TimeControl.parse`` form can be typed).
PRESETS = ("3+2", "5+0", "15+10", "25+10", "90+30", "40/90 + 30 + 30 s")

_CLIENT = {
    "white": N_("White"),
    "black": N_("Black"),
    "arbiter": N_("Arbiter"),
    "spectator": N_("Spectator"),
    "to_move": N_("{side} to move"),
    "press": N_("Press the clock"),
    "start": N_("Start the clocks"),
    "offer": N_("Offer a draw"),
    "accept": N_("Accept the draw"),
    "decline": N_("Decline the draw"),
    "claim_threefold": N_("Claim threefold repetition"),
    "claim_fifty": N_("Claim fifty moves"),
    "claim_time": N_("Claim on time"),
    "claim_illegal": N_("Claim an illegal move"),
    "resign": N_("Resign"),
    "confirm_resign": N_("Resign this game?"),
    "move_box": N_("Type a move"),
    "send": N_("Play"),
    "read_clock": N_("Read the clocks"),
    "clock_reading": N_("White {white}, Black {black}."),
    "moved": N_("{side} played {move}."),
    "illegal_marker": N_("illegal"),
    "draw_offered": N_("{side} offers a draw."),
    "game_over": N_("Game over: {result}, {termination}."),
    "article": N_("article {article}"),
    "flag": N_("{side}'s flag has fallen."),
    "connected": N_("Connected."),
    "disconnected": N_("Connection lost; reconnecting..."),
    "stop": N_("Stop the clocks"),
    "restart": N_("Restart the clocks"),
    "add_time": N_("Add time"),
    "set_clock": N_("Set the clocks"),
    "seconds": N_("seconds"),
    "penalty": N_("Penalty"),
    "decide": N_("Decide the claim"),
    "uphold": N_("Uphold"),
    "reject": N_("Reject"),
    "restore": N_("Restore the position after ply"),
    "declare": N_("Declare a result"),
    "log": N_("Log"),
    "moves": N_("Moves"),
    "download_pgn": N_("Download the PGN"),
    "scoresheet": N_("Scoresheet"),
    "pending_claim": N_("A claim waits for the arbiter's decision."),
    "spectator_link": N_("Spectator link"),
    "apply": N_("Apply"),
    "player": N_("Player"),
    "none": N_("none"),
    "board_start": N_("Chessboard, initial position"),
    "board_after": N_("Chessboard after {move}"),
    "clocks_running": N_("The clocks are running."),
    "clocks_stopped": N_("The clocks are stopped."),
    "initial_position": N_("none: the initial position"),
    "adjourn": N_("Adjourn"),
    "resume": N_("Resume"),
    "date": N_("Date"),
    "time": N_("Time"),
    "place": N_("Place"),
    "present": N_("{side} at the board"),
    "envelope_missing": N_("Envelope missing"),
    "envelope_link": N_("Printable envelope"),
    "seal_box": N_("Your sealed move"),
    "seal": N_("Seal and stop the clocks"),
    "check_seal": N_("Check"),
    "seal_reads": N_("It reads {move}."),
    "adjourn_ordered": N_("The arbiter has adjourned the game: {side} seals the move."),
    "adjourned": N_("Adjourned: the sealed move is in the envelope."),
    "envelope_closed": N_(
        "The resumption has begun; the envelope is opened when {side} is at the board."
    ),
}


def client_texts(lang: str) -> dict[str, str]:
    """The game client's texts in ``lang``."""
    return {key: gettext(message, lang) for key, message in _CLIENT.items()}
