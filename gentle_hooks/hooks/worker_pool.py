"""An ordered thread pool: ``[fn(x) for x in items]`` with the calls overlapped.

Room ``hooks``; standard library only. The push gate judges several commits at once with
it (:mod:`gentle_hooks.hooks.push_gate`): judging a commit is mostly waiting for its git
processes, and on threads those of several commits overlap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")
    U = TypeVar("U")


def in_order(fn: Callable[[T], U], items: Sequence[T], workers: int = 4) -> list[U]:
    """``[fn(x) for x in items]`` on up to ``workers`` threads.

    Results keep the order of ``items``; when calls fail, the first failure in that order
    is raised, as the loop would have raised it. Fewer than two items run on the calling
    thread.
    """
    if len(items) < 2:
        return [fn(x) for x in items]
    results: list[U | None] = [None] * len(items)
    errors: list[BaseException | None] = [None] * len(items)
    todo = iter(range(len(items)))
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            try:
                results[i] = fn(items[i])
            except BaseException as exc:  # re-raised in order below
                errors[i] = exc

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(items)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for err in errors:
        if err is not None:
            raise err
    return results  # type: ignore[return-value]
