//! Every bound unolab keeps, in one place: what a file, a script, a deck,
//! a game and a line of input may grow to. Each is met by an error that
//! names the file or script (never a hang, a crash or a machine's memory).
//! The Rhai engine's own limits are set from these in `script::engine`.

/// Bytes a file unolab reads (a variant, rule, script, scenario, snapshot
/// spec, saved game, shard or the line history) may hold. Only regular
/// files are read.
pub const FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 100;

/// Players at one table (a variant's `players:` range stays within it).
pub const PLAYERS: usize = 16;

/// Colours a variant may have, both sides together.
pub const COLORS: usize = 32;

/// Points one card may score (so that no hand's total can overflow).
pub const CARD_POINTS: i64 = 1_000_000;

/// Nesting of YAML maps and lists.
pub const YAML_DEPTH: usize = 64;

/// Cards in a whole deck (every copy counted).
pub const DECK_CARDS: usize = 10_000;

/// Cards one deck template (`"{color} {1-9}"`) may expand to.
pub const TEMPLATE_CARDS: usize = 10_000;

/// Operations one hook call may run before it is stopped.
pub const SCRIPT_OPERATIONS: u64 = 200_000;

/// Nested function calls in a script.
pub const SCRIPT_CALL_LEVELS: usize = 32;

/// Expression depth in a script: at the top level, and in functions.
pub const SCRIPT_EXPR_DEPTHS: (usize, usize) = (64, 32);

/// Bytes in one string a script makes.
pub const SCRIPT_STRING_BYTES: usize = 4_096;

/// Items in one array, and entries in one map, a script makes.
pub const SCRIPT_ARRAY_ITEMS: usize = 1_024;
pub const SCRIPT_MAP_ENTRIES: usize = 256;

/// Variables in scope, and functions in a script.
pub const SCRIPT_VARIABLES: usize = 256;
pub const SCRIPT_FUNCTIONS: usize = 512;

/// Short strings each Rhai engine keeps interned (a cache, so its memory is
/// bounded too).
pub const SCRIPT_INTERNED_STRINGS: usize = 1_024;

/// Milliseconds of the wall clock one hook call may run. The clock never
/// decides a game: what a rule may do is bounded by operations
/// (`SCRIPT_OPERATIONS`), host calls (`HOOK_STEPS`) and sizes, the same on
/// every machine. The clock is a safety net past them (a rule's hook takes
/// microseconds; one that works on large values may take seconds): it
/// stops the whole run, saying it was the clock, and no result or figure
/// counts it (`RuleFailure::by_clock`).
pub const HOOK_MILLIS: u64 = 2_000;

/// Milliseconds of the wall clock the scripts of one action may run
/// together (and, apart, those asked while a seat's moves are worked out,
/// or whether an action is legal and why not): an action may run many
/// hooks, each within its own budget. Replays and the host's own work do
/// not count. A safety net as `HOOK_MILLIS` is: it stops the run, it never
/// decides a game.
pub const ACTION_MILLIS: u64 = 4_000;

/// Host functions one hook call may call (questions and changes): a
/// hook that logs or queues penalties in a loop is stopped here.
pub const HOOK_STEPS: usize = 10_000;

/// Lines of `print`/`debug` output kept from hooks that may not log.
pub const PRINTED_LINES: usize = 1_000;

/// Lines of a trace of hook calls (`--trace`, `trace on`) kept until a
/// front end takes them; past it, lines are counted, not kept.
pub const TRACE_LINES: usize = 200_000;

/// Reads and changes a trace tells of one call (a hook may make up to
/// `HOOK_STEPS`); the rest are counted.
pub const TRACE_STEPS: usize = 40;

/// Options one `choose` may offer.
pub const CHOICE_OPTIONS: usize = 32;

/// How deep moments may set each other off (a penalty in
/// `on_penalty_taken` sets off `on_penalty_taken`...) before the rule is at
/// fault.
pub const NESTED_MOMENTS: u32 = 16;

/// Steps of recorded hook calls one memo keeps; beyond that, calls simply
/// run (the memo saves time, never changes a result).
pub const MEMO_NODES: usize = 200_000;

/// Characters of one `log` line; the rest is cut, saying how much.
pub const LOG_LINE: usize = 1_000;

/// State values (`set_state`) the table, and each seat, may hold.
pub const STATE_VALUES: usize = 256;

/// Actions one hand may take in a simulation or a check before it is
/// reported as stuck.
pub const HAND_ACTIONS: u64 = 20_000;

/// Playouts a search bot may be given for one decision (`search:N`).
pub const SEARCH_PLAYOUTS: u32 = 10_000_000;

/// Hands one simulated match may take.
pub const MATCH_HANDS: u32 = 1_000;

/// Games (or matches) one simulation may play, and threads it may run on.
pub const SIM_GAMES: u64 = 1_000_000_000;
pub const SIM_THREADS: usize = 256;
/// Bins of a simulation's histograms of sizes (the largest penalty of a
/// hand, its longest chain...): sizes 0 to `SIM_SIZES - 1`, the last bin
/// open (that size or more).
pub const SIM_SIZES: usize = 256;

/// Lines the REPL's history keeps (the newest).
pub const HISTORY_LINES: usize = 1000;

/// Characters in one line of REPL input (a line read from a pipe may take
/// four bytes a character; a longer one is refused whole, unread).
pub const REPL_LINE: usize = 1_024;

/// Characters in a player's name at a networked table.
pub const NAME_CHARS: usize = 16;

/// Bytes of one WebSocket message (or frame) a host or client reads; a
/// longer one closes the connection, with the reason.
pub const MESSAGE_BYTES: usize = 8 * 1024;

/// Bytes of text in one `output` message a host sends: a longer text goes
/// in several, each within `MESSAGE_BYTES` however its characters are
/// escaped in JSON (at most six bytes a byte).
pub const OUTPUT_PIECE: usize = 1024;

/// Bytes of text a host sends a seat at once (the answer to one line, or
/// what happened between two of its decisions); past it, the rest is left
/// out and the seat told so.
pub const OUTPUT_BYTES: usize = 64 * 1024;

/// Connections a host serves at once (players, and those not yet seated);
/// one more is answered `503` with the reason, and closed.
pub const CONNECTIONS: usize = 32;

/// Milliseconds a new connection has for its WebSocket handshake and its
/// `hello`.
pub const HELLO_MILLIS: u64 = 5_000;

/// Messages one connection may send a second, on average, with bursts of
/// up to `MESSAGE_BURST`; a flood past that closes it.
pub const MESSAGES_PER_SECOND: u32 = 20;
pub const MESSAGE_BURST: u32 = 40;

/// Messages of one connection the host refuses (not JSON, not of the
/// protocol) before it closes the connection.
pub const REFUSED_MESSAGES: u32 = 10;

/// Messages waiting to be sent to one connection; a client that reads
/// none while they pile up is closed (its seat is kept).
pub const OUTBOX_MESSAGES: usize = 256;

/// Messages from all connections waiting for the game; past that, a line
/// is refused as "busy".
pub const GAME_QUEUE: usize = 256;

/// Seconds a seat has to act at a networked table, unless the host says
/// (`--turn-time`), and the most it may say.
pub const TURN_SECONDS: u64 = 120;
pub const TURN_SECONDS_MOST: u64 = 24 * 3600;

/// Times a client tries to take its seat back after a lost connection.
pub const RECONNECT_TRIES: u32 = 5;

/// Events a player back at a networked table after a lost connection is
/// told of, at most (the last ones; `log N` shows more).
pub const MISSED_EVENTS: usize = 40;

/// Seconds a networked table waits for a person to take or let pass a
/// chance out of turn (a catch, a jump-in), if their turn time is longer.
pub const CHANCE_SECONDS: u64 = 10;

/// Lines of a changed snapshot's diff shown in the report; the rest are
/// counted (the whole new transcript is in its `.snap.new`).
pub const DIFF_LINES: usize = 60;
