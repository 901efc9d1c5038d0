"""Private copies of an index (SPEC §3 "Candidate tree": the user's index is never written).

Room ``git``; standard library and :mod:`gentle_hooks.bounded` only, no ``subprocess``: the
commit gate's entry copies the index git hands the hook before the gate's imports
(:mod:`gentle_hooks.hooks.commit_early`), and :mod:`.index` copies it for every projection.
"""

from __future__ import annotations

import os

from gentle_hooks.bounded import WriteError, remove_files, residue, sweep

#: The name of a hook's private index copy, up to its owner's process id.
INDEX_PREFIX = "gentle-hooks-index-"


def private_copy(src: str, directory: str) -> str:
    """A new file holding ``src``'s bytes with its access and modification times, or a
    path where none exists yet when ``src`` does not exist; its path.

    Created exclusively (``O_EXCL``, mode 0600) in ``directory``, else in the temporary
    directory. Plain ``os`` calls: :mod:`shutil` and :mod:`tempfile` cost ≈ 5 ms to import
    on the hook path.

    Raises:
        OSError: neither directory takes a file.
        WriteError: ``src`` cannot be read or the copy cannot be written (a full disk);
            the message names the copy and ``src``.
    """
    # A hook killed before it removed its copy left one here; the next one removes it.
    sweep(directory, INDEX_PREFIX)
    try:
        fd, path = _exclusive_file(directory)
    except OSError:
        import tempfile

        # named with the pid as in the git directory, so the next run (or doctor) can
        # tell a killed run's copy, and git's .lock beside it, from a live one's
        remove_files(temp_index_residue())
        fd, path = _exclusive_file(tempfile.gettempdir())
    try:
        try:
            src_fd = os.open(src, os.O_RDONLY)
        except FileNotFoundError:
            os.close(fd)
            os.unlink(path)  # git creates the index it needs
            return path
        try:
            st = os.fstat(src_fd)
            done = 0
            while done < st.st_size:
                sent = os.sendfile(fd, src_fd, done, st.st_size - done)
                if sent == 0:
                    break
                done += sent
        finally:
            os.close(src_fd)
        os.close(fd)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    except BaseException as exc:
        if os.path.exists(path):
            os.unlink(path)
        if isinstance(exc, OSError):
            # os.sendfile's error names no file: say which copy could not be written
            reason = exc.strerror or str(exc)
            raise WriteError(f"{path}: cannot copy the index {src}: {reason}") from None
        raise
    return path


def remove_copy(tmp: str) -> None:
    """Remove a private index copy and the ``.lock`` git may have left beside it."""
    for path in (tmp, tmp + ".lock"):
        if os.path.exists(path):
            os.unlink(path)


def temp_index_residue() -> list[str]:
    """This user's index copies (and git's ``.lock`` beside them) that killed runs left in
    the system's temporary directory, where a copy goes when the git directory refuses
    it (:func:`gentle_hooks.bounded.residue`); never another user's."""
    import tempfile

    out = []
    for path in residue(tempfile.gettempdir(), INDEX_PREFIX):
        try:
            if os.lstat(path).st_uid == os.getuid():
                out.append(path)
        except OSError:
            continue
    return out


def _exclusive_file(directory: str) -> tuple[int, str]:
    for _ in range(16):
        path = os.path.join(directory, f"{INDEX_PREFIX}{os.getpid()}-{os.urandom(6).hex()}")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(directory)
