"""The one runner under the arena and the lab: duplicate deals in batches, on any backend.

Why it is shaped this way (the arena before it got *slower* with two workers:
every deal was its own task and every game rebuilt its agents):

- *Batches.* The unit of work is a batch of consecutive deals (each deal in
  every seat rotation). How deals fall into batches depends only on the plan,
  never on the number of workers, and every random choice is derived from the
  plan's seed and the deal's number; so a batch's rows are the same wherever
  and whenever it runs, and a run gives the same rows with 1 worker, 2 workers
  or a Ray cluster.
- *Agents built once per worker* (:mod:`decklab.lab.agents`), reseeded per game.
- *Results streamed to disk.* With an output folder, each finished batch is a
  Parquet part file (``rows/part-000042.parquet``, written to a temporary name and
  renamed, so a part file is always whole) and a line in ``batches.jsonl``;
  ``manifest.json`` holds the plan. The driver keeps only per-batch summaries,
  so memory stays flat in the number of games, and an interrupted run resumes
  with the batches it has not finished.
- *Backends.* In-process (one worker), local worker processes (spawned, not
  forked, so a worker starts clean), or Ray (``ray.init(address)``, or a local
  Ray). Results come back in batch order, which the arena's SPRT relies on.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import math
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import decklab
from decklab.bots.base import Agent
from decklab.bots.spec import parse_spec
from decklab.engine.chance import Rng
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab.agents import build_agent, check_spec
from decklab.lab.hooks import EventsFn, game_events
from decklab.lab.loop import play_game

if TYPE_CHECKING:
    import pyarrow as pa

_MASK = (1 << 64) - 1
MAX_BATCH_GAMES = 2048
"""At most about this many games in a batch (bounds a worker's memory and the resume loss)."""
MIN_BATCHES = 16
"""A plan is cut into at least this many batches when it has the deals (parallelism, progress)."""
MANIFEST = "manifest.json"
BATCHES = "batches.jsonl"


class RunError(DecklabError):
    """A run that cannot be done as asked (bad players, game, folder or backend)."""


_SEED_START = 0x243F6A8885A308D3


def _chain(h: int, part: int) -> int:
    """One step of :func:`derive_seed`: the play loop chains a shared prefix once."""
    return Rng((h ^ (part * 0x9E3779B97F4A7C15)) & _MASK).next64()


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers, stable across processes and Python runs (no ``hash``)."""
    h = _SEED_START
    for part in parts:
        h = _chain(h, part)
    return h >> 1


def seat_lineups(slots: Sequence[int], seats: int) -> list[tuple[int, ...]]:
    """The rotations of a seating: which entry of ``slots`` sits in each seat, per rotation.

    ``slots`` lists the agents in the order given (cycled when shorter than the
    table: A B → A B A B). Every rotation shifts everyone one seat, so each
    agent sits in each seat equally often; a rotation that repeats an earlier
    seating (A B A B shifted twice) is played once, which keeps the balance.
    With more agents than seats (three agents at a two-seat game, several at a
    solo game) the agent list itself rotates through the seats.
    """
    m = len(slots)
    if m <= seats:
        base = [slots[i % m] for i in range(seats)]
        candidates = [tuple(base[(i + r) % seats] for i in range(seats)) for r in range(seats)]
    else:
        candidates = [tuple(slots[(i + r) % m] for i in range(seats)) for r in range(m)]
    lineups: list[tuple[int, ...]] = []
    for lineup in candidates:
        if lineup not in lineups:
            lineups.append(lineup)
    return lineups


def resolve_players(cls_info: Any, count: int, players: int | None) -> int:
    """How many seats: as asked; else one per spec if the game allows; else the game's default."""
    if players is not None:
        return int(players)
    if cls_info.min_players <= count <= cls_info.max_players:
        return count
    return int(cls_info.default_players)


# ------------------------------------------------------------------------ plan
@dataclass(frozen=True)
class Plan:
    """Everything that decides a run's rows. Two equal plans give equal rows."""

    game: str
    players: int
    options: dict[str, Any]
    """The options as given (resolved per game by the state, as ``GameState.new`` does)."""
    resolved: dict[str, Any]
    """Every option's value, for the record (metadata, reports)."""
    agents: tuple[str, ...]
    """The distinct agent specs; ``lineups`` index them."""
    lineups: tuple[tuple[int, ...], ...]
    seed: int
    deals: int
    batch_deals: int
    trace: bool = True
    """Record each seat's score after every decision that changed a score."""

    @property
    def batches(self) -> int:
        return math.ceil(self.deals / self.batch_deals)

    @property
    def games(self) -> int:
        return self.deals * len(self.lineups)

    def batch_deals_range(self, batch: int) -> range:
        start = batch * self.batch_deals
        return range(start, min(start + self.batch_deals, self.deals))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["lineups"] = [list(x) for x in self.lineups]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        return cls(
            game=data["game"],
            players=int(data["players"]),
            options=dict(data["options"]),
            resolved=dict(data["resolved"]),
            agents=tuple(data["agents"]),
            lineups=tuple(tuple(x) for x in data["lineups"]),
            seed=int(data["seed"]),
            deals=int(data["deals"]),
            batch_deals=int(data["batch_deals"]),
            trace=bool(data.get("trace", True)),
        )

    def key(self) -> str:
        """A digest of the plan: a folder holds one plan, and resumes only that plan."""
        text = json.dumps(self.to_json(), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_batch_deals(deals: int, lineups: int) -> int:
    """Deals per batch: at least :data:`MIN_BATCHES` batches, at most about 2,048 games each."""
    cap = max(1, MAX_BATCH_GAMES // max(1, lineups))
    return max(1, min(math.ceil(deals / MIN_BATCHES), cap))


def make_plan(
    game: str,
    specs: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    batch_deals: int | None = None,
    trace: bool = True,
) -> Plan:
    """Check the request and plan at least ``games`` games (whole deals, every rotation).

    ``specs`` lists one agent spec per seat, or fewer, cycled over the seats.
    Every problem (no such game, agent, option or table size) is a clear
    :class:`DecklabError` before anything is played.
    """
    try:
        cls = get_game(game)
    except KeyError as exc:
        raise RunError(str(exc.args[0])) from None
    info = cls.info
    if not specs:
        raise RunError("name at least one agent spec")
    if games < 1:
        raise RunError(f"the number of games must be at least 1, not {games}")
    specs = [s.strip() for s in specs]
    for spec in specs:
        check_spec(spec)  # AgentSpecError, a DecklabError, with a clear message
    n = resolve_players(info, len(specs), players)
    given = {k: v for k, v in (options or {}).items()}
    resolved = info.resolve_options(n, given)  # OptionError for a bad option or table size
    agents = list(dict.fromkeys(specs))
    lineups = seat_lineups([agents.index(s) for s in specs], n)
    deals = max(1, math.ceil(games / len(lineups)))
    if batch_deals is not None and batch_deals < 1:
        raise RunError(f"a batch holds at least one deal, not {batch_deals}")
    return Plan(
        game=info.name,
        players=n,
        options=given,
        resolved=_jsonable(resolved),
        agents=tuple(agents),
        lineups=tuple(lineups),
        seed=seed,
        deals=deals,
        batch_deals=batch_deals or default_batch_deals(deals, len(lineups)),
        trace=trace,
    )


def _jsonable(options: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: v if isinstance(v, bool | int | float | str) or v is None else str(v)
        for k, v in options.items()
    }


# ---------------------------------------------------------------- playing
@dataclass
class Batch:
    """What one batch produced: its rows as columns, and what it cost."""

    index: int
    columns: dict[str, list[Any]]
    think: list[float]
    """Seconds spent choosing, per agent (varies from run to run, so not in the rows)."""
    decisions: list[int]
    """Decisions taken, per agent."""
    cpu_seconds: float
    wall_seconds: float
    wins: list[float] = field(default_factory=list)
    """Win shares per agent (for the running win rates)."""
    seats_played: list[int] = field(default_factory=list)
    """Seats each agent held over the batch's games."""
    games: int = 0
    """Games played (kept when the rows have gone to disk)."""

    def summary(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "games": self.games,
            "think": self.think,
            "decisions": self.decisions,
            "cpu_seconds": self.cpu_seconds,
            "wall_seconds": self.wall_seconds,
            "wins": self.wins,
            "seats_played": self.seats_played,
        }


COLUMNS = (
    "deal", "rotation", "seed", "lineup", "scores", "shares", "winners",
    "length", "seat_decisions", "first_seat", "trace", "events",
)  # fmt: skip

_AGENT_CACHE: dict[tuple[str, int], Agent] = {}
"""One agent per (spec, seat) per worker process, reused across games and batches."""


def agent_seed(spec: str, deal_seed: int, rotation: int, seat: int) -> int:
    """The seed of ``spec``'s agent in this deal, rotation and seat.

    A seed in the spec is kept as an input rather than used as is, so that an
    agent does not replay the same random choices in every deal.
    """
    return derive_seed(_spec_base(spec), deal_seed, rotation, seat)


def _spec_base(spec: str) -> int:
    _, params = parse_spec(spec)
    return int(params["seed"]) if "seed" in params else 0


def play_batch(plan: Plan, index: int) -> Batch:
    """Play every rotation of every deal of batch ``index``. Runs wherever a worker is.

    The loop is kept lean (a random game of Corporation is a fraction of a
    millisecond, so per-game overhead shows): the agents' seeds are derived
    with the shared prefix of :func:`derive_seed` computed once per deal and
    rotation, the events hook is looked up once, and the per-game work is in
    :func:`decklab.lab.loop.play_game`.
    """
    cpu0, wall0 = time.process_time(), time.perf_counter()
    cls = get_game(plan.game)
    n = plan.players
    k = len(plan.agents)
    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    think = [0.0] * k
    decisions = [0] * k
    wins = [0.0] * k
    seats_played = [0] * k
    hook = game_events(cls)
    options = plan.options
    record_trace = plan.trace
    # (spec's seed chained once: derive_seed(base, deal_seed, rotation, seat))
    spec_heads = [_chain(_SEED_START, _spec_base(spec)) for spec in plan.agents]
    seated = [
        [_cached_agent(plan.agents[a], seat) for seat, a in enumerate(lineup)]
        for lineup in plan.lineups
    ]
    lineups = [list(lineup) for lineup in plan.lineups]
    c_deal, c_rot, c_seed, c_lineup = cols["deal"], cols["rotation"], cols["seed"], cols["lineup"]
    c_scores, c_shares, c_winners = cols["scores"], cols["shares"], cols["winners"]
    c_length, c_moves, c_first = cols["length"], cols["seat_decisions"], cols["first_seat"]
    c_trace, c_events = cols["trace"], cols["events"]
    for deal in plan.batch_deals_range(index):
        deal_seed = derive_seed(plan.seed, deal)
        deal_heads = [_chain(h, deal_seed) for h in spec_heads]
        for rotation, lineup in enumerate(lineups):
            rot_heads: dict[int, int] = {}
            agents = seated[rotation]
            for seat, a in enumerate(lineup):
                head = rot_heads.get(a)
                if head is None:
                    head = rot_heads[a] = _chain(deal_heads[a], rotation)
                agents[seat].reseed(_chain(head, seat) >> 1)
            state = cls.new(n, options, seed=deal_seed)
            moves, first, trace, seat_think = play_game(state, agents, record_trace)
            shares = state.returns()
            for seat, a in enumerate(lineup):
                decisions[a] += moves[seat]
                wins[a] += shares[seat]
                seats_played[a] += 1
                think[a] += seat_think[seat]
            c_deal.append(deal)
            c_rot.append(rotation)
            c_seed.append(deal_seed)
            c_lineup.append(lineup)
            c_scores.append([float(s) for s in state.scores()])
            c_shares.append(list(shares))
            c_winners.append(state.winners())
            c_length.append(sum(moves))
            c_moves.append(moves)
            c_first.append(first)
            c_trace.append(trace)
            c_events.append(sorted(_events(hook, state).items()) if hook is not None else [])
    return Batch(
        index=index,
        columns=cols,
        think=think,
        decisions=decisions,
        cpu_seconds=time.process_time() - cpu0,
        wall_seconds=time.perf_counter() - wall0,
        wins=wins,
        seats_played=seats_played,
        games=len(c_deal),
    )


def _cached_agent(spec: str, seat: int) -> Agent:
    agent = _AGENT_CACHE.get((spec, seat))
    if agent is None:
        agent = build_agent(spec)
        _AGENT_CACHE[(spec, seat)] = agent
    return agent


def _events(hook: EventsFn, state: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in hook(state).items()}


def play_batch_to(plan: Plan, index: int, out: str) -> Batch:
    """Play a batch and write its part file here (a worker on the same disk); rows are dropped."""
    batch = play_batch(plan, index)
    write_part(Path(out), plan, batch)
    batch.columns = {c: [] for c in COLUMNS}
    return batch


# ----------------------------------------------------------------- backends
@dataclass(frozen=True)
class Backend:
    """Where batches run: ``workers`` local processes, or Ray at ``ray`` (``"local"``: start one)."""

    workers: int = 1
    ray: str | None = None

    def describe(self) -> str:
        if self.ray is not None:
            return f"ray ({self.ray})"
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"


LOCAL = Backend()
"""One worker, in this process."""


def run_batches(
    plan: Plan, todo: Sequence[int], backend: Backend, out: Path | None = None
) -> Generator[Batch, None, None]:
    """Play the batches ``todo`` and yield them in that order.

    With ``out`` the part files are written (by the worker when it shares the
    disk, else by the driver) and the yielded batches carry no rows. Closing
    the generator early (the SPRT decided) cancels what has not started.
    """
    if backend.workers < 1:
        raise RunError(f"workers must be at least 1, not {backend.workers}")
    if backend.ray is not None:
        yield from _run_ray(plan, todo, backend, out)
        return
    if backend.workers == 1 or len(todo) <= 1:
        for index in todo:
            batch = play_batch(plan, index)
            if out is not None:
                write_part(out, plan, batch)
                batch.columns = {c: [] for c in COLUMNS}
            yield batch
        return
    pool = worker_pool(backend.workers)
    window = 2 * backend.workers
    pending: deque[Future[Batch]] = deque()
    try:
        for index in todo:
            pending.append(_submit(pool, plan, index, out))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BrokenProcessPool:
        _POOLS.pop(backend.workers, None)
        raise
    finally:
        for future in pending:
            future.cancel()


_POOLS: dict[int, ProcessPoolExecutor] = {}


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, kept for the next run.

    Starting a worker (a fresh interpreter importing decklab and pyarrow) costs
    about half a CPU-second; a sweep, a tuning run or a skill trace runs many
    small simulations one after the other, so they share one pool and its
    workers keep their agents. Spawned, not forked: a worker starts clean
    instead of inheriting the parent's threads (the progress bar's).
    """
    pool = _POOLS.get(workers)
    if pool is None:
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        _POOLS[workers] = pool
        if len(_POOLS) == 1:
            atexit.register(shutdown_pools)
    return pool


def shutdown_pools() -> None:
    """Stop the kept worker processes (at exit, or when a caller wants them gone)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


def _submit(pool: ProcessPoolExecutor, plan: Plan, index: int, out: Path | None) -> Future[Batch]:
    if out is None:
        return pool.submit(play_batch, plan, index)
    return pool.submit(play_batch_to, plan, index, str(out))


def _run_ray(
    plan: Plan, todo: Sequence[int], backend: Backend, out: Path | None
) -> Generator[Batch, None, None]:
    try:
        import ray
    except ImportError:
        raise RunError("--ray needs Ray: pip install 'decklab[cluster]'") from None
    started = False
    if not ray.is_initialized():
        if backend.ray == "local":
            # --ray local alone uses every CPU here (Ray's default); --workers K caps it
            cpus = backend.workers if backend.workers > 1 else None
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=backend.ray, log_to_driver=False)
        started = True
    remote = ray.remote(play_batch)
    window = max(2, 2 * int(ray.available_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    pending: deque[Any] = deque()
    try:
        for index in todo:
            pending.append(remote.remote(plan, index))
            if len(pending) >= window:
                yield _ray_done(ray.get(pending.popleft()), plan, out)
        while pending:
            yield _ray_done(ray.get(pending.popleft()), plan, out)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()


def _ray_done(batch: Batch, plan: Plan, out: Path | None) -> Batch:
    # A cluster's workers may not share our disk: the driver writes.
    if out is not None:
        write_part(out, plan, batch)
        batch.columns = {c: [] for c in COLUMNS}
    return batch


# ------------------------------------------------------------------- parquet
def schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("deal", pa.int64()),
            ("rotation", pa.int16()),
            ("seed", pa.int64()),
            ("players", pa.int16()),
            ("seats", pa.list_(pa.string())),
            ("lineup", pa.list_(pa.int16())),
            ("options", pa.string()),
            ("scores", pa.list_(pa.float64())),
            ("shares", pa.list_(pa.float64())),
            ("winners", pa.list_(pa.int16())),
            ("length", pa.int32()),
            ("seat_decisions", pa.list_(pa.int32())),
            ("first_seat", pa.int16()),
            ("trace", pa.list_(pa.list_(pa.float64()))),
            ("events", pa.map_(pa.string(), pa.int64())),
        ]
    )


def metadata(plan: Plan) -> dict[bytes, bytes]:
    """What a part file says about itself: the plan (run parameters) and decklab's version."""
    return {
        b"decklab_version": decklab.__version__.encode(),
        b"decklab_plan": json.dumps(plan.to_json(), sort_keys=True, default=str).encode(),
        b"decklab_plan_key": plan.key().encode(),
    }


def to_table(plan: Plan, batch: Batch) -> pa.Table:
    import pyarrow as pa

    cols = batch.columns
    rows = len(cols["deal"])
    data = {
        **{c: cols[c] for c in COLUMNS},
        "players": [plan.players] * rows,
        "seats": [[plan.agents[a] for a in lineup] for lineup in cols["lineup"]],
        "options": [json.dumps(plan.resolved, sort_keys=True)] * rows,
    }
    sch = schema().with_metadata(metadata(plan))
    return pa.Table.from_pydict({name: data[name] for name in sch.names}, schema=sch)


ROWS = "rows"
"""The sub-folder of the part files: ``pyarrow.parquet.read_table("DIR/rows")`` reads them all."""


def part_path(out: Path, index: int) -> Path:
    return out / ROWS / f"part-{index:06d}.parquet"


def write_part(out: Path, plan: Plan, batch: Batch) -> None:
    import pyarrow.parquet as pq

    final = part_path(out, batch.index)
    final.parent.mkdir(exist_ok=True)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    pq.write_table(to_table(plan, batch), tmp, compression="zstd")
    os.replace(tmp, final)


def finished_batches(out: Path) -> dict[int, dict[str, Any]]:
    """A folder's batches logged as finished whose part file exists, by index (a torn last
    line is ignored; none for no folder)."""
    done: dict[int, dict[str, Any]] = {}
    log = out / BATCHES
    if not log.exists():
        return done
    for line in log.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        index = int(entry["index"])
        if part_path(out, index).exists():
            done[index] = entry
    return done


# ------------------------------------------------------------------ folders
class RunFolder:
    """A folder holding one plan's results: manifest, finished-batch log, part files."""

    def __init__(self, path: Path, plan: Plan) -> None:
        self.path = path
        self.plan = plan

    @classmethod
    def open(cls, path: Path, plan: Plan) -> RunFolder:
        """Start a run in ``path``, or resume it if it holds this very plan.

        A folder holding a different plan (other agents, games, seed …) or
        other files is refused rather than mixed or overwritten.
        """
        manifest = path / MANIFEST
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise RunError(f"{manifest} is not a decklab manifest ({exc})") from None
            if old.get("key") != plan.key():
                raise RunError(
                    f"{path} holds a different run (plan {old.get('key')}, this one "
                    f"{plan.key()}): choose another --out, or delete it to start over"
                )
            return cls(path, plan)
        if path.exists() and any(path.iterdir()):
            raise RunError(f"{path} is not empty and holds no decklab run: choose another --out")
        path.mkdir(parents=True, exist_ok=True)
        body = {
            "key": plan.key(),
            "plan": plan.to_json(),
            "decklab_version": decklab.__version__,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        tmp = manifest.with_suffix(".tmp")
        tmp.write_text(json.dumps(body, indent=2, sort_keys=True, default=str), encoding="utf-8")
        os.replace(tmp, manifest)
        return cls(path, plan)

    def finished(self) -> dict[int, dict[str, Any]]:
        """Batches logged as finished whose part file exists (a torn last line is ignored)."""
        return finished_batches(self.path)

    def log(self, batch: Batch) -> None:
        with (self.path / BATCHES).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(batch.summary()) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def is_complete(self) -> bool:
        return len(self.finished()) == self.plan.batches


ProgressFn = Callable[[Batch], None]


def run_to_folder(
    plan: Plan,
    out: Path,
    backend: Backend = LOCAL,
    on_batch: ProgressFn | None = None,
    stop_after: int | None = None,
) -> RunFolder:
    """Play what ``out`` lacks of ``plan``, batch by batch; returns the folder.

    ``on_batch`` sees every batch (finished earlier ones first, so a resumed
    progress bar starts where it stopped). ``stop_after`` plays at most that
    many new batches (tests use it to interrupt a run).
    """
    folder = RunFolder.open(out, plan)
    done = folder.finished()
    if on_batch is not None:
        for entry in done.values():
            on_batch(_summary_batch(entry))
    todo = [b for b in range(plan.batches) if b not in done]
    if stop_after is not None:
        todo = todo[:stop_after]
    for batch in run_batches(plan, todo, backend, out):
        folder.log(batch)
        if on_batch is not None:
            on_batch(batch)
    return folder


def resume_batches(plan: Plan, out: Path, backend: Backend = LOCAL) -> Generator[Batch, None, None]:
    """Every batch of ``plan`` in order, with its rows: those ``out`` holds read back, the
    rest played and kept there as they finish.

    Why: a study of hours (an all-expert table of ten) outlives a sitting. Run again with
    the same plan and folder, it plays only what is missing, and since a batch's rows
    depend on the plan alone, the report is the one an uninterrupted run gives. The rows
    come back (unlike :func:`run_to_folder`'s) because the arena reads every game.
    """
    folder = RunFolder.open(out, plan)
    done = folder.finished()
    fresh = run_batches(plan, [b for b in range(plan.batches) if b not in done], backend)
    try:
        for index in range(plan.batches):
            if index in done:
                yield read_batch(out, done[index])
                continue
            batch = next(fresh)
            write_part(out, plan, batch)
            folder.log(batch)
            yield batch
    finally:
        fresh.close()


def read_batch(out: Path, entry: Mapping[str, Any]) -> Batch:
    """A finished batch from its log line and its part file, rows and all."""
    import pyarrow.parquet as pq

    batch = _summary_batch(entry)
    table = pq.read_table(part_path(out, batch.index), columns=list(COLUMNS))
    batch.columns = {c: table.column(c).to_pylist() for c in COLUMNS}
    return batch


def logged_wall_seconds(out: Path) -> float:
    """The wall time of the batches a folder holds finished: a resumed study's earlier
    sittings."""
    return math.fsum(float(e["wall_seconds"]) for e in finished_batches(out).values())


def _summary_batch(entry: Mapping[str, Any]) -> Batch:
    return Batch(
        index=int(entry["index"]),
        columns={c: [] for c in COLUMNS},
        think=list(entry["think"]),
        decisions=list(entry["decisions"]),
        cpu_seconds=float(entry["cpu_seconds"]),
        wall_seconds=float(entry["wall_seconds"]),
        wins=list(entry.get("wins", [])),
        seats_played=list(entry.get("seats_played", [])),
        games=int(entry["games"]),
    )


def read_plan(out: Path) -> Plan:
    """The plan of a run folder (RunError if it holds none)."""
    manifest = out / MANIFEST
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise RunError(f"{out} holds no decklab run (no readable {MANIFEST})") from None
    return Plan.from_json(data["plan"])


def read_table(out: Path, columns: Iterable[str] | None = None) -> pa.Table:
    """Every finished row of a run folder, in deal order (part files in batch order)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    plan = read_plan(out)
    folder = RunFolder(out, plan)
    parts = [part_path(out, b) for b in sorted(folder.finished())]
    cols = list(columns) if columns is not None else None
    if not parts:
        return schema().empty_table() if cols is None else schema().empty_table().select(cols)
    tables = [pq.read_table(p, columns=cols) for p in parts]
    return pa.concat_tables(tables)
