"""Authors for the co-authorship distance (`metrics.AuthorGraph`): names read from raw reference strings.

An author is keyed by surname and first initial ("perdew j"), the most a reference string reliably
gives. Reference strings name their authors in one of three ways, read chunk by chunk (split on
commas, "and", "&") until a chunk is no name: "J. P. Perdew, K. Burke, and M. Ernzerhof, …",
"Ravenhall D. G., Pethick C. J., 1983, …" and "Lee, J.-J., & Gullikson, K. 2016, …", or with given
names in full ("Ji Gao, Jack Lanchantin, …", read only when the list opens so). A hand-written
reader because no maintained reference parser runs offline without a trained model download; a
string it cannot read gives no authors, and the evaluation counts those.
"""

from __future__ import annotations

import re

SURNAME = r"(?:(?:van|von|der|de|del|da|di|le|la|du|dos|ten|ter)\s+)*[A-Z][\w'\u00C0-\u024F\-]+"
INITIALS = r"(?:[A-Z](?:[a-z]\.|\.?)(?:-[A-Z](?:[a-z]\.|\.?))?[\s~]*){1,5}"  # "J.", "Ch.", "H.-D.", "M. F. S. J."
INITIALS_FIRST = re.compile(rf"^({INITIALS})\s*({SURNAME}(?:\s{SURNAME})?)$")  # "S. V. Isakov", "H.-D. Meyer"
SURNAME_FIRST = re.compile(rf"^({SURNAME})\s+({INITIALS})$")  # "Ravenhall D. G."
BARE_SURNAME = re.compile(rf"^{SURNAME}(?:\s{SURNAME})?$")  # "Lee" (its initials follow as the next chunk)
ONLY_INITIALS = re.compile(rf"^{INITIALS}$")
FULL_NAME = re.compile(rf"^([A-Z][a-z]+(?:[\s-][A-Z][a-z]+)?(?:\s[A-Z]\.?)?)\s({SURNAME})$")  # "Mary Lou Soffa"
ET_AL = re.compile(r"\bet\s*al\b.*$", re.I)


def author_key(surname: str, given: str) -> str:
    """'perdew j': lower-case surname (particles kept) and first initial."""
    first = re.sub(r"[^A-Za-z]", "", given)[:1].lower()
    return f"{' '.join(surname.lower().split())} {first}".strip()


def reference_authors(raw: str) -> list[str]:
    """The author keys a raw reference string opens with; [] when it opens with something else."""
    head = re.split(r"[“\"]|\(\d{4}|\b(?:19|20)\d{2}\b", raw.replace("~", " "), maxsplit=1)[0]
    head = re.split(r"(?<=\w\w)\.\s", ET_AL.sub("", head), maxsplit=1)[0]  # a sentence ends after the names
    chunks = [" ".join(c.strip(" .;:").split()) for c in re.split(r",|\band\b|&", head)]
    out: list[str] = []
    full = None  # whether the list writes given names in full; set by its first name
    i = 0
    while i < len(chunks):
        c = chunks[i]
        if not c:
            i += 1
            continue
        if (m := INITIALS_FIRST.match(c)) and full is not True:
            out.append(author_key(m.group(2), m.group(1)))
        elif (m := SURNAME_FIRST.match(c)) and full is not True and not ONLY_INITIALS.match(c):
            out.append(author_key(m.group(1), m.group(2)))
        elif BARE_SURNAME.match(c) and full is not True and i + 1 < len(chunks) and ONLY_INITIALS.match(chunks[i + 1]):
            out.append(author_key(c, chunks[i + 1]))
            i += 1
        elif (m := FULL_NAME.match(c)) and full is not False:
            out.append(author_key(m.group(2), m.group(1)))
            full = True
        else:
            break
        full = bool(full)
        i += 1
    return out
