"""What a whole git object id looks like (SPEC §2 "Git access").

Room ``values``; imports nothing: the push hook checks git's ids before its imports.
"""

#: The digits of an object id as git prints it.
HEX_DIGITS = "0123456789abcdef"


def is_object_id(text: str) -> bool:
    """Whether ``text`` is a whole object id: 40 (SHA-1) or 64 (SHA-256) lowercase hex."""
    return len(text) in (40, 64) and not text.strip(HEX_DIGITS)
