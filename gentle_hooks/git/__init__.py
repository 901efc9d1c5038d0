"""The git adapter (SPEC §2 "Git access", §3): the only code that runs git.

Room ``git``. Plumbing output only, parsed into our own value types; the hook environment
(``GIT_DIR``, ``GIT_INDEX_FILE``, ``GIT_WORK_TREE``, quarantine) is honoured, and the user's
index is never written. :class:`~.repository.Repository` composes one module per job:

* :mod:`.process` — child processes
* :mod:`.parse` — plumbing output parsed
* :mod:`.location` — where the repository lives
* :mod:`.core` — running git there
* :mod:`.gitconfig` — config reads and writes, the committer identity
* :mod:`.refs` — revisions, merge-bases, new commits, ancestor trees, HEAD's reflog
* :mod:`.logwalk` — one ``git log`` for a push's commits, started ahead of the imports
* :mod:`.objects` — blobs, tree entries and commits by id
* :mod:`.catfile` — the one ``cat-file --batch`` a repository object keeps for its reads
* :mod:`.blobsearch` — streamed blob search
* :mod:`.notes` — notes refs read, written, merged
* :mod:`.message` — trailers in a message
* :mod:`.remote` — single refs fetched from and pushed to a remote
* :mod:`.destination` — the remote the work goes to, and the commits it holds
* :mod:`.index` — staged and snapshot projections
* :mod:`.diff` — diff stats and scans
* :mod:`.pairtrees` — some changes' sides as trees of their own, in a private object directory
* :mod:`.delta` — what a change did to each path, by blob id
* :mod:`.fetchhead` — the commits ``git fetch`` brought in from another repository
* :mod:`.submodules` — the submodules git status shows changed
* :mod:`.base` — base ref, merge-base, candidate
* :mod:`.stashes` — stash entries, kept and dropped (loose stash commits)
* :mod:`.checkout` — temporary linked checkouts of a tree, and the list of linked worktrees
* :mod:`.room_export` — one tree as a standalone repository (the verifier's clean room)
* :mod:`.room_check` — what such a room holds now
* :mod:`.ignore` — ignore checks and this clone's ``info/exclude``
* :mod:`.repository` — the composition
* :mod:`.ssh` — SSH signatures made and checked as git makes them (``ssh-keygen -Y``)
* :mod:`.probe` — the hook pass path's light reads (no ``subprocess``)
"""
