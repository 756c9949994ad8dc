"""Writing a kept clause as a memory's text: third person, in the user's language, naming
whom it is about.

  "I'm allergic to peanuts"          -> "User is allergic to peanuts"
  "I usually go swimming"            -> "User usually goes swimming"   (verbs inflected by lemminflect)
  "My son Noah has soccer on Sat"    -> "User's son Noah has soccer on Sat"
  "我家狗狗也很喜欢洗澡"              -> "用户的狗狗也很喜欢洗澡"
  "我最喜欢的歌是《月亮代表我的心》"  -> "用户最喜欢的歌是《月亮代表我的心》"  (titles and quotes untouched)

Only words outside quotes and titles change; the exact clause stays in the memory's
provenance.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lexicon import lemmas, plural_noun
from .subjects import DIET_ALONE, EVENT, THING, USER, Subject, en_state_article

# -- protected spans ----------------------------------------------------------------------

# Quoted text and titles are what someone else wrote: never rewritten.
_PROTECTED = re.compile(r"\"[^\"]*\"|“[^”]*”|《[^》]*》|「[^」]*」|『[^』]*』")


def _outside(text: str, fn) -> str:  # type: ignore[no-untyped-def]
    """Apply `fn` to the parts of `text` outside quotes and titles."""
    out, last = [], 0
    for m in _PROTECTED.finditer(text):
        out.append(fn(text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fn(text[last:]))
    return "".join(out)


# -- English verbs ------------------------------------------------------------------------

_MODALS = frozenset("""can can't cannot could couldn't will won't would wouldn't should shouldn't must mustn't
might may shall used""".split())
_AGREE = {"am": "is", "are": "is", "'m": "is", "have": "has", "do": "does", "don't": "doesn't",
          "wanna": "wants to", "gotta": "has to", "gonna": "is going to",
          "haven't": "hasn't", "aren't": "isn't", "be": "is", "were": "was", "weren't": "wasn't"}
# Days as typed in chat ("tues thurs sat", "sundays off", "weeknights 2 hrs"): names, never verbs.
_DAY_WORDS = frozenset("""mon tue tues wed weds thu thur thurs fri sat sun monday mondays tuesday tuesdays wednesday
wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays weekday weekdays weekend weekends
weeknight weeknights""".split())
# Past forms that look like bare verbs: "I quit smoking" stays past.
_SAME_PAST = frozenset("quit put cut hit let set shut hurt cost spread saw found lay wound ground fell bore read".split())


def _kinds(word: str) -> frozenset[str]:
    return frozenset(lemmas(word))


@lru_cache(maxsize=4096)
def _third_person(word: str) -> str:
    """The verb `word` after a singular third-person subject ("go" -> "goes")."""
    from lemminflect import getAllLemmas, getInflection

    low = word.lower()
    if low in _AGREE:
        return _AGREE[low]
    if low in _MODALS or low in _SAME_PAST or low in _DAY_WORDS or low in _FUNCTION_WORDS \
            or not re.fullmatch(r"[a-z][a-z-]*", low):
        return word
    lemmas = getAllLemmas(low)
    verb = lemmas.get("VERB") or lemmas.get("AUX")
    if verb is not None and low not in verb:
        return word  # not the bare form: past ("went"), participle or already agreed
    if not verb and lemmas:
        return word  # a known word that is not a verb
    if not lemmas and (low.endswith("s") or low.endswith("ed") and not low.endswith("eed")):
        return word  # a word the lexicon does not know, already plural or agreed, or a past ("breastfed")
    inflected = getInflection(low, "VBZ")
    return inflected[0] if inflected else word


def _s_form(word: str) -> str:
    """The verb's "-s" form ("read" -> "reads"), whatever else the word may be."""
    from lemminflect import getInflection

    inflected = getInflection(word, "VBZ")
    return inflected[0] if inflected else word


@lru_cache(maxsize=4096)
def _past(word: str) -> bool:
    """Whether `word` is the simple past of a verb ("left", "moved", "quit"), by its inflections."""
    from lemminflect import getAllLemmas, getInflection

    if not re.fullmatch(r"[a-z]+", word) or word in _MODALS:
        return False
    verbs = getAllLemmas(word).get("VERB", ())
    # A past the same as its bare form reads as an order ("set it up and I ..."), but for "quit".
    return any(word in getInflection(lemma, "VBD") and (word != lemma or word == "quit") for lemma in verbs)


# Words after which a past form is not the clause's verb in the past: "the left side",
# "I'm excited", "I've booked", "will be finished", "to be married".
_NOT_BEFORE_PAST = frozenset("""the a an my your his her our their this that to be been being is am are was were
i'm you're he's she's it's we're they're 'm 're get gets got getting feel feels felt have has had i've we've 've
will 'll i'll we'll would 'd""".split())


def _own_subject(t: str) -> bool:
    """Whether a clause opens with a subject of its own, a name and its verb ("Pepper loves
    lounging on the couch"), not a verb with the "I" left out ("Dyed my hair")."""
    words = t.split()
    if len(words) < 2 or not t[:1].isupper():
        return False
    head, second = words[0].lower().strip(",.!"), words[1].lower().strip(",.!")
    if head.endswith(("'s", "’s")) and len(head) > 3:
        return True  # "Thanksgiving's always special for us": a noun and its "is"
    if _plural_noun(head) and "VERB" in _kinds(second) and second in (getattr_lemma(second) or ()):
        return True  # "Pets make us so much happier"
    return not head.endswith(("s", "ed", "ing")) and _vbz(second)


def getattr_lemma(word: str) -> tuple[str, ...]:
    """The verb lemmas of `word` ("make" -> ("make",)): a bare verb is its own lemma."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word).get("VERB", ())


@lru_cache(maxsize=4096)
def _vbz(word: str) -> bool:
    """Whether `word` can be a verb's third-person present, even where it is also a plural noun ("loves")."""
    from lemminflect import getAllLemmas, getInflection

    return word.endswith("s") and len(word) >= 4 and any(word in getInflection(v, "VBZ") for v in getAllLemmas(word).get("VERB", ()))


@lru_cache(maxsize=4096)
def _third(word: str) -> bool:
    """Whether `word` is a verb's third-person present ("refreshes", "keeps"), not a plural noun."""
    from lemminflect import getAllLemmas, getInflection

    if not word.endswith("s") or len(word) < 4:
        return False
    lemmas = getAllLemmas(word)
    return "NOUN" not in lemmas and any(word in getInflection(v, "VBZ") for v in lemmas.get("VERB", ()))


def past_tense(low: str) -> bool:
    """Whether a lower-case English clause tells of the past by its verb: "she moved in with me"."""
    words = re.findall(r"[a-z']+", low)
    return any(_past(w) and i > 0 and words[i - 1] not in _NOT_BEFORE_PAST and not _is_adverb(words[i - 1])
               or _past(w) and i > 1 and _is_adverb(words[i - 1]) and words[i - 2] not in _NOT_BEFORE_PAST
               for i, w in enumerate(words))


def _is_adverb(word: str) -> bool:
    low = word.lower().strip(",")
    kinds = _kinds(low)
    return (("ADV" in kinds and "VERB" not in kinds) or low in ("just", "also", "still", "even", "only", "kinda",
                                                                "sorta", "totally", "actually", "now")) \
        and low not in ("like",)


# Verbs of a noun and a verb, whose second word takes the ending ("meal preps").
_COMPOUND_VERBS = frozenset({
    "meal prep", "batch cook", "deep clean", "spring clean", "speed read", "power walk", "dog sit", "house sit",
    "baby sit", "home school", "sleep train", "bullet journal", "dry clean", "window shop", "bottle feed", "breast feed",
    "meal plan", "trail run", "road trip", "couch surf", "bar hop", "gift wrap", "sight see", "food shop"})


# Words that open a clause of its own inside the words after the verb.
_NEW_SUBJECT = frozenset("they he she it we you who how that which when where what while because if".split())


# A word after "and" that is followed by one of these takes an object: it is a verb
# ("works in QGIS and finish the layout" -> "finishes"), not a noun ("coffee and tea"),
# unless an infinitive came first ("wants to be known ... and help their team").
_OBJECT_NEXT = re.compile(r"(?:the|a|an|my|our|their|his|her|its|this|these|those|some|every)$", re.I)


def _unknown_name(word: str) -> bool:
    """ "lisinopril", "Ozempic": a name the lexicon does not know, the object of a verb before it."""
    low = word.lower().strip(",.")
    return len(low) > 3 and low.isalpha() and not _kinds(low) and low not in _DAY_WORDS


_NUMBER_WORD = re.compile(r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)", re.I)


_PARTICLES = frozenset("in out up down home back around away over off early late".split())
# Words that make a verb that is its own past ("read", "put", "cut") a habit of the present.
_HABITUAL_WORDS = frozenset("usually always often mostly normally generally sometimes never rarely seldom typically".split())


def agree(rest: str) -> str:
    """The words after a third-person singular subject: the first verb agrees with it, and
    so does a verb joined to it by "and" ("brings a book and just chills")."""
    words = rest.split(" ")
    first = None
    for i, w in enumerate(words):
        if not w:
            continue
        if _is_adverb(w):
            continue
        if i + 1 < len(words) and f"{w.lower()} {words[i + 1].lower()}" in _COMPOUND_VERBS:
            i += 1  # "meal prep" -> "meal preps": the verb is the second word
            w = words[i]
        if _NUMBER_WORD.fullmatch(w):
            break  # "four 10-hour nights a week": a number where a verb would be, no verb to agree
        bare, stop = re.match(r"^(.*?)(,*)$", w).groups()  # ("I also freedive, which ...": the verb before a comma)
        agreed = "has been" if w.lower() == "been" else _third_person(bare) + stop  # "Been checking out places"
        if bare.lower() in _SAME_PAST and any(x.lower() in _HABITUAL_WORDS for x in words[:i]):
            agreed = _s_form(bare.lower()) + stop  # "usually put the kids to bed", "mostly read on my phone": now, not then
        words[i], first = agreed, (i if agreed != w else None)
        break
    if first is not None:
        for i in range(first + 1, len(words) - 1):
            if words[i].lower().strip(",") in _NEW_SUBJECT:
                break  # "loves how they can fly around and explore": that "and" is theirs
            if _infinitive(words, i):
                break  # "wants to travel and have fun": that "and" joins the infinitives
            if words[i].lower() == "and":
                j = i + 1
                while j < len(words) - 1 and _is_adverb(words[j]):
                    j += 1
                w, kinds = words[j], _kinds(words[j])
                # A verb, not a noun ("coffee and tea", "cats and dogs"), unless an adverb
                # says it is one ("and just chill").
                # Nor where only a particle stands between the two verbs ("stays in and reads",
                # "cooks and watches TV"): two doings, not two things.
                verbs_only = all(x.lower() in _PARTICLES for x in words[first + 1:i])
                if w.isalpha() and w.islower() and _bare_verb(w) \
                        and ("NOUN" not in kinds or j > i + 1 or verbs_only or j + 1 < len(words) and (_OBJECT_NEXT.match(words[j + 1]) is not None
                                                                                         or _unknown_name(words[j + 1]) and "ADJ" not in kinds)
                             and "to" not in (x.lower() for x in words[first + 1:i])):
                    # ("stays in and reads": a present first verb makes "read" present too.)
                    words[j] = _third_person(w) if w not in _SAME_PAST else _s_form(w)
                break
            if words[i].endswith((",", ".", ";")):
                break
    return " ".join(words)


# -- English pronouns ---------------------------------------------------------------------

_EN_LATER = [
    (r"\bi'm\b", "they're"), (r"\bi am\b", "they are"), (r"\bi've\b", "they've"), (r"\bi'd\b", "they'd"),
    (r"\bi'll\b", "they'll"), (r"\bi was\b", "they were"), (r"\bwas i\b", "were they"), (r"\bmyself\b", "themselves"), (r"\bmine\b", "theirs"),
    (r"\bmy\b", "their"), (r"\bme\b(?!-)", "them"),  # "me-time" stays
    (r"\bwe're\b", "they're"), (r"\bwe've\b", "they've"), (r"\bwe\b", "they"), (r"\bour\b", "their"), (r"\bus\b(?!-)", "them"),  # "us-east-2" stays
]
# "I" as a numeral in a title ("CFA Level I", "World War I") stays: after a capitalised
# word that does not open the sentence, before a noun or the end.
_TITLE_I = re.compile(r"(?<=\S )([A-Z][\w-]*) I\b(?!')(?=\s+([\w-]+)|\W*$)")


def _title_i(m: re.Match[str]) -> bool:
    nxt = (m.group(2) or "").lower()
    return not nxt or not (_kinds(nxt) & {"VERB", "AUX", "ADV"})


_SO_DO_I = {"do": "does", "am": "is", "have": "has"}
_OTHERS_EN = re.compile(r"\b(?:they|them|their|he|him|his|she|her)\b", re.I)


def _pronouns_en(text: str, about_other: bool = False) -> str:
    # About someone else ("User's partner started joining me"): "me" is the user, not "them".
    others = about_other or _OTHERS_EN.search(text) is not None

    def swap(part: str) -> str:
        if others:
            # "they share the same passion as me": "as them" would be they; the user by name.
            part = re.sub(r"\b(?:me|myself)\b(?!-)", "the user", part)
        if about_other:
            part = re.sub(r"\bmy\b", "the user's", part)  # "She'd often come to my classes"
            # "she cries at night when I go to bed": the user, not "they".
            part = re.sub(r"\b(?:I|i)(?:'m| am)\b", "the user is", part)
            # ("assume i only have an air fryer": the verb after the adverb.)
            part = re.sub(r"\b(?:I|i) ((?:only|just|also|always|never|usually|really|still|often|sometimes|mostly|rarely|normally|"
                          r"actually|already|basically|generally|typically) )?([a-z]+)\b",
                          lambda m: "the user " + (m.group(1) or "") + _third_person(m.group(2)), part)
        # "clients find it unprofessional and so do i": "so do they" would be the clients.
        part = re.sub(r"\b(so|neither|nor) (do|did|am|was|have|can|will|would) (?:I|i)\b(?!['’-])",
                      lambda m: f"{m.group(1)} {_SO_DO_I.get(m.group(2), m.group(2))} the user", part)
        for pattern, repl in _EN_LATER:
            part = re.sub(pattern, lambda m, r=repl: m.group(0) if _acronym(m.group(0)) else _case(m.group(0), r), part, flags=re.I)
        part = _TITLE_I.sub(lambda m: f"{m.group(1)} \x00" if _title_i(m) else m.group(0), part)
        # ("I-80", "I-95": an interstate, not the speaker.)
        part = re.sub(r"\bI\b(?!-\d)|(?<![\w.])i\b(?![.'’]\w)", "they", part)  # chat often types "i"
        return part.replace("\x00", "I")

    return _outside(text, swap)


def _acronym(found: str) -> bool:
    """ "US" in "PyCon US" is not "us"."""
    return len(found) > 1 and found.isupper() and "'" not in found


def _case(found: str, repl: str) -> str:
    # "I" is upper case anywhere: "when I was" is "when they were", not "when They were".
    return repl[:1].upper() + repl[1:] if found[:1].isupper() and not re.match(r"i(?:\b|')", found, re.I) else repl


_FIRST = [
    (r"^i'm\b", "User is"), (r"^im\b", "User is"), (r"^i am\b", "User is"),
    (r"^i've got\b(?! to\b)", "User has"),  # "I've got two cats": has them
    (r"^i've\b", "User has"),
    (r"^i have\b", "User has"), (r"^i'd\b", "User would"), (r"^i'll\b", "User will"), (r"^i was\b", "User was"),
]
_MID_FIRST = {"i'm": "the user is", "i am": "the user is", "i've": "the user has", "i'd": "the user would",
              "i'll": "the user will", "i was": "the user was"}
_TRAILING_EN = re.compile(r"[\s,]+(?:btw|lol|haha+|tbh|though|fyi|lmao|too|as well|please|pls|for example|for instance|:\)|:D|i guess|i suppose|to be honest|honestly"
                          r"|if (?:that's|that is|it's|it is) (?:ok|okay|fine|alright|cool|good with you))[.!?]*$", re.I)
_LEAD_CONJ = re.compile(r"^(?:(?:and|but|so|also|plus|then|because|though|although|while|yet|or)\b|as for me\b|for (?:example|instance)\b)[\s,]*", re.I)
# A request to the assistant after the fact ("I'm a freelance translator so help me keep
# these invoices simple"): the fact is kept, the request for the task at hand is not.
_REQUEST_TAIL_EN = re.compile(r"[\s,;-]+(?:so|and|,)\s+(?:please\s+|pls\s+)?(?:help me|can you|could you|would you|make sure you|"
                              r"give me|write me|show me|tell me|find me|keep (?:it|this|these|them|the \w+))\b.*$", re.I)
_EN_WORK = re.compile(r"\b(?:work|team|company|firm|deploy\w*|code|office|project|client|clients|sprints?|standups?|retros?|on-call|release|stack|service|prod|staging|repo|api|backend|frontend|server|cluster|ci|school|class|lab"
                      r"|tickets?|jira|slack|cms|shifts?|clinic|shop|store|restaurant|cafe|bakery|salon|customers|patients|orders|opening hours|menu)\b")
_EN_YOUNG = re.compile(r"\b(?:back then|as kids|as teens|as teenagers|growing up|when we were (?:kids|young|little|teens|teenagers|children))\b")
_EN_PARTNER = re.compile(r"\b(?:married|engaged|wedding|honeymoon|anniversary|eloped|tied the knot)\b")
_EN_FAMILY = re.compile(r"\b(?:kids?|son|daughter|wife|husband|family|baby|children|parents|partner|home|house|vacation|holiday|trip)\b")


# A finite verb after a gerund opener: the gerund phrase is the sentence's subject.
_FINITE_EN = re.compile(r"\b(?:helps?|helped|keeps?|kept|makes?|made|is|are|was|were|has|had|will|would|can|could|gives?|gave|"
                        r"brings?|brought|gets?|got|lets?|calms?|calmed|relax(?:es|ed)|reminds?|reminded|takes?|took|"
                        r"means?|meant|feels?|felt|allows?|allowed|teaches|taught|inspires?|inspired)\b")


# Words after a spoken "this" that introduce rather than point back ("I just adopted this cute pup").
INTRODUCING = ("amazing|awesome|cute|cool|super|great|beautiful|gorgeous|incredible|new|little|big|huge|tiny|inspiring|"
               "interesting|funny|wonderful|lovely|fantastic|special|sweet|nice|crazy|weird|rad|epic|adorable")
# "from now on, …": when a standing rule starts, not what it says.
_FROM_NOW_ON = r"(?:from now on|going forward|in (?:the )?future|by default)"
# Chinese words after which a second 我 is the user's own (给我的小狗 -> 给自己的小狗).
_ZH_SELF_AFTER = "给为帮跟和带陪让把替对"
# ...unless what follows it is said of the user, not owned ("对我没用" is "对自己没用").
_ZH_NOT_OWNED = "(?:没|不|很|太|都|也|来说|说|有|挺|特别|非常|真|比|是|就|还|一|会|能|要|想|讲|而言|去|来|到|回|出|玩|吃|看|逛)"


# "Long haul driver here", "high school chemistry teacher here": who is speaking, as chat
# says it.
_HERE_INTRO = re.compile(r"^(?!(?:i|we|my|our|it|this|that|there|they|he|she|you|someone|everyone|nobody|the)\b)((?:[A-Za-z][\w-]* ){0,3}"
                         r"(?:[a-z][\w-]*(?:er|or|ist|ian|ant|ent|smith)|nurse|teacher|driver|chef|cook|mom|mum|dad|parent|student|engineer|"
                         r"developer|doctor|dev|medic|vet|pilot|farmer|retiree|newbie|noob))\s+here\b(.*)$", re.I)


_HAD_PARTICIPLE = re.compile(r"\b(i|we)'d (?=(?:never |just |already |ever |always |not |only )?(?:been|felt|had|seen|gone|done|"
                             r"made|known|heard|thought|met|tried|taken|given|written|become|\w+ed)\b)", re.I)


def english(text: str, subject: Subject, phrase_end: int = 0, inherited: bool = False) -> str:
    # "I'd never felt so much love": "'d" before a participle is "had", not "would".
    text = _HAD_PARTICIPLE.sub(lambda m: f"{m.group(1)} had ", text)
    out = _english(text, subject, phrase_end, inherited)
    out = re.sub(r"\b([a-z]+s)'s\b", lambda m: m.group(1) + "'" if plural_noun(m.group(1)) else m.group(0), out)  # siblings
    # "I just adopted this cute pup": spoken "this" introduces; written, it is "a".
    out = re.sub(rf"\bthis (?=(?:{INTRODUCING})\b)", lambda m: "an " if re.match(r"[aeiou]", out[m.end():m.end() + 1]) else "a ", out)
    if subject.kind == USER and not re.search(r"\buser\b", out, re.I):
        out = re.sub(r"\btheirs\b", "the user's", out, count=1)  # "Spider-Man has always been a favorite of mine"
    if subject.kind == USER and out.startswith("User "):
        out = joined_verbs(carried_verbs(out))
    return out


# A word after "and" followed by one of these (or a number) takes an object or a time: a
# verb ("work nights", "walk him", "take home 4k", "coach their team"); before another
# noun it is a noun ("sci-fi and fantasy books").
_AFTER_VERB = frozenset("""him her them us home out up every each all some the a an my our their his its this
these those nights days evenings mornings weekends shifts overtime""".split())
_HOW_OFTEN = frozenset("once twice two three four five daily weekly monthly regularly most often".split())
_COMPANY = frozenset("others friends people family colleagues coworkers teammates them him her my our a some".split())


@lru_cache(maxsize=4096)
def _bare_verb(word: str) -> bool:
    """Whether `word` is a verb's bare form ("sing", "take"), not "running" or "needs"."""
    from lemminflect import getAllLemmas

    return word in getAllLemmas(word).get("VERB", ())


# Verbs that take "to" and a verb ("and honestly just want to switch off").
_TO_VERBS = frozenset("want need love like hate plan hope try wish prefer intend decide learn start continue".split())


def _infinitive(words: list[str], i: int) -> bool:
    """Whether words[i] is the "to" of an infinitive ("to travel"), not of a place ("to Denver")."""
    if words[i].lower() != "to" or i + 1 >= len(words):
        return False
    nxt = words[i + 1].strip(",.")
    return nxt.islower() and _bare_verb(nxt)


# Verbs that take "in" or "with" after them, never a noun's second half ("rock and roll in the car").
_IN_WITH_VERBS = frozenset("""struggle suffer help deal cope work live stay play sing dance swim run cook bake paint
volunteer specialise specialize invest believe participate compete""".split())


def joined_verbs(text: str) -> str:
    """ "User recently joined a rock band and have been practicing guitar", "User is a nurse
    and work nights": a verb joined by "and" to the user's own verb has the user for its
    subject too, and agrees with them ("and has been practicing", "and works nights"). Not
    after a modal ("can cook and have fun"), "used to", an infinitive ("wants to travel
    and have fun") or a clause of someone else's ("met people who travel and have fun")."""
    words = text.split(" ")
    k = 1
    while k < len(words) and _is_adverb(words[k]):
        k += 1
    if k >= len(words) - 1:
        return text
    main = words[k].lower()
    if main in _MODALS or main in ("and", "used", "'s") or not _kinds(main) & {"VERB", "AUX"}:
        return text
    for i in range(k + 1, len(words) - 1):
        low = words[i].lower()
        if low.strip(",") in _NEW_SUBJECT or words[i - 1].endswith((",", ".", ";", ":")) or _infinitive(words, i):
            return text
        if low not in ("and", "but"):
            continue
        j = i + 1
        while j < len(words) - 1 and _is_adverb(words[j]):
            j += 1
        w = words[j]
        if w in _AGREE and w not in ("be",):
            words[j] = _AGREE[w]
        elif w.isalpha() and w.islower() and _bare_verb(w) and w not in _MODALS:
            kinds = _kinds(w)
            after = words[j + 1].lower().strip(",.") if j + 1 < len(words) else ""
            after2 = words[j + 2].lower().strip(",.") if j + 2 < len(words) else ""
            takes_object = after in _AFTER_VERB or re.fullmatch(r"\d+(?:s|h|hrs)?", after) is not None or after == "to" and w in _TO_VERBS \
                or after in ("in", "at", "near", "from", "for") and w in ("live", "work", "study", "stay", "teach", "train") \
                or after in _HOW_OFTEN or after == "with" and after2 in _COMPANY \
                or _unknown_name(after) and "ADJ" not in kinds \
                or after in ("in", "with") and w in _IN_WITH_VERBS
            # ("and take lisinopril", not "and green scenery"; "wears hearing aids and struggle in noisy
            # restaurants", not "rock and roll in the car".)
            # ("joined a chess club and practice with others", "joined a gym and go three
            # times a week": how often and with whom follow a verb, not a noun.)
            # A word that is only a verb, or one that is also a noun with an object after it
            # ("rock and roll" stays).
            if "VERB" in kinds and (kinds <= {"VERB", "AUX"} or takes_object):
                words[j] = _third_person(w)
        return " ".join(words)
    return text


def carried_verbs(text: str) -> str:
    """ "User is vegan, have been about 5 years", "..., haven't in a while": the verb after a
    comma or "but" whose "I" was left out, agreed with the user (`agree`)."""
    text = re.sub(r"(?:^|(?<=, )|(?<= but ))(?:but )?((?:have|haven't|don't|do not)\b[^,]*)",
                  lambda m: m.group(0)[: m.start(1) - m.start(0)] + agree(m.group(1)), text)
    # "User is 52, work as a dispatcher", "..., need to write a PRD": a bare verb after a comma
    # that takes "as" or "to" is the user's too.
    text = re.sub(r"(?<=, )([a-z]+)(?= (?:as|to) )",
                  lambda m: _third_person(m.group(1)) if _bare_verb(m.group(1)) and m.group(1) not in _MODALS
                  and "ADJ" not in _kinds(m.group(1)) else m.group(1), text)  # ("close to ASU" is where)
    # "(carry an EpiPen)": a verb opening an aside of a few words is the user's too.
    return re.sub(r"\(((?:always |never |usually )?([a-z]+) [^()]+)\)",
                  lambda m: f"({agree(m.group(1))})" if "VERB" in _kinds(m.group(2)) and not m.group(2).endswith(("s", "ing", "ed"))
                  else m.group(0), text)


# Where the user works, said as "at the restaurant we ..." (not "in the end we ...").
_WORKPLACE = (r"(?:restaurant|office|clinic|hospital|shop|store|bakery|café|cafe|school|lab|company|firm|factory|warehouse|gym|"
              r"studio|salon|bar|pub|hotel|library|pharmacy|farm|agency|practice|site|plant|station|ward|kitchen)")


def _english(text: str, subject: Subject, phrase_end: int = 0, inherited: bool = False) -> str:
    t = _TRAILING_EN.sub("", _LEAD_CONJ.sub("", text.strip()).strip()).strip()
    t = _REQUEST_TAIL_EN.sub("", t).strip() or t
    t = re.sub(r",?\s*\bfor (?:example|instance)\b,?", "", t, flags=re.I).strip() or t
    low = t.lower()
    m = re.match(r"^(?:please )?call me (\S+)", low)
    if m:
        return f"User wants to be called {t[m.start(1):m.end(1)]}"
    if subject.kind != USER:
        return _tidy(_entity_en(t, subject, phrase_end, inherited))
    intro = _HERE_INTRO.match(t)
    if intro and not subject.group:
        # "high school chemistry teacher here" -> "User is a high school chemistry teacher".
        said = intro.group(1)
        if said[:1].isupper() and said[1:2].islower():
            said = said[0].lower() + said[1:]  # ("Locksmith here": capital only as the message's first word)
        return _tidy(f"User is {'an' if said[:1].lower() in 'aeiou' else 'a'} {said}{_pronouns_en(intro.group(2))}")
    if subject.joint:
        rest = t[phrase_end:].lstrip()
        return _tidy(f"User and their {subject.joint} " + _pronouns_en(rest))
    for pattern, repl in _FIRST:
        m = re.match(pattern, low)
        if m:
            return _tidy(repl + _pronouns_en(t[m.end():]))
    if re.match(r"^i\b", low):
        return _tidy("User " + _pronouns_en(agree(t[2:])))
    if re.match(r"^my\b", low):
        return _tidy("User's" + _pronouns_en(t[2:]))
    if subject.group and re.match(r"^(?:we|our|us)\b|^(?:the )?(?:[a-z]+ )?team\b", low):
        return _tidy(_group_en(t, low, subject.company))
    place = re.match(rf"^(at) (?:(?:the|my|our) )?((?:[a-z]+ )?{_WORKPLACE}|(?<=at )work),? (?=(?:we|our)\b)", low) if subject.group else None
    if place:
        # "at the restaurant we use Toast for POS": where the user works, and what they do there.
        return _tidy(f"{place.group(1).capitalize()} the user's {place.group(2)}, " + _pronouns_en(t[place.end():]))
    if subject.group and re.search(r"\bat work\b|^the company\b", low) and not re.search(r"\b(?:we|our|us|i|my|me)\b", low):
        # "the monorepo at work uses pnpm" -> "The monorepo at the user's work uses pnpm".
        return _tidy(re.sub(r"^the company\b", "the user's company", re.sub(r"\bat work\b", "at the user's work", t, flags=re.I),
                            flags=re.I))
    aux = re.match(r"^(been|haven't|havent|hadn't|can't|cant|cannot|couldn't|didn't|didnt|don't|dont|won't|wasn't|was|got|gotta)\b",
                   low) if subject.kind == USER and not subject.group else None
    if aux:
        # "Been thinking about my plans", "Haven't found any exercises I like": the "I" left out.
        said = {"been": "has been", "haven't": "hasn't", "havent": "hasn't", "don't": "doesn't", "dont": "doesn't",
                "didnt": "didn't", "cant": "can't", "gotta": "has to"}.get(aux.group(1), aux.group(1))
        return _tidy("User " + said + _pronouns_en(t[aux.end():]))
    first_word = low.split(" ", 1)[0].strip(",.:;!")
    later_i = re.search(r"\b(?:when|whenever|if|while|after|before|because|since|until|once)\s+(?:i|i'm|im|i've)\b", low)
    if later_i and first_word.endswith("ing") and "VERB" in _kinds(first_word) \
            and not re.search(r"\b(?:i|i'm|im|i've|my|me)\b", low[:later_i.start()]) \
            and not _FINITE_EN.search(low, 0, min(later_i.start(), low.find(",") if "," in low else len(low))):
        # "learning piano, 20 min a day when i'm home": the "I'm" left out; the "i" is the when's.
        return _tidy("User is " + _pronouns_en(t[:1].lower() + t[1:]))
    mid = re.search(r"\b(?:i'm|i am|i've|i'd|i'll|i was|i)\b", t, re.I)
    if mid and not any(_title_i(m) for m in _TITLE_I.finditer(t)):
        # "When I travel I prefer ..." -> "When the user travels they prefer ..."
        word = mid.group(0).lower()
        head, rest = t[:mid.start()], t[mid.end():]
        early = re.search(r"\b(?:my|me)\b", head, re.I)
        if early and word in _MID_FIRST | {"i": ""} and re.fullmatch(r"(?:after|before|since|while|when|once|until|upon)\s+\w+ing\b[^,;]*,\s*", head, re.I):
            # "After losing my job, I started freelancing": "their" in the lead, the user named in the main clause.
            head = re.sub(r"\bmy\b", "their", re.sub(r"\bme\b", "them", head, flags=re.I), flags=re.I)
            said = _MID_FIRST[word] + rest if word in _MID_FIRST else "the user " + agree(rest.lstrip())
            return _tidy(head + _pronouns_en(said))
        if early:
            # "Losing my job gave me the push I needed": the user is named where first mentioned.
            return _tidy(_user_at(t, early))
        if re.fullmatch(r"(?:[A-Z][a-z]+|(?:my|our) [\w-]+(?: [A-Z][a-z]+)?)\s+and\s*", head, re.I) \
                and word in ("i", "i'm", "i am", "i've"):
            # "Sam and I are getting married": two subjects, the verb stays plural.
            said = "the user " + {"i'm": "are ", "i am": "are ", "i've": "have "}.get(word, "") + rest.lstrip()
        else:
            said = _MID_FIRST[word] + rest if word in _MID_FIRST else "the user " + agree(rest.lstrip())
        first = head.split(" ", 1)[0].lower().strip(",.")
        if _past(first):
            head = "User " + head[:1].lower() + head[1:]  # "left Denver last week and I'm in Portland now"
        return _tidy(_pronouns_en(head) + _pronouns_en(said))
    head = low.split(" ", 1)[0].strip(",.:;!")
    gerund = head.endswith("ing") and "VERB" in _kinds(head)
    mine = re.search(r"\b(?:my|me)\b", t, re.I)
    if gerund and mine and not (re.match(r"^\w+ing to\b", low) and not _FINITE_EN.search(low, mine.end())) \
            and (_FINITE_EN.search(low, 0, mine.start()) or _FINITE_EN.search(low, mine.end())
                            or any(_past(w) or _third(w) for w in re.findall(r"[a-z]+", low[len(head):]))
                            or re.search(r"\b[a-z]+s (?:my|me)\b", low[len(head):mine.end()]) and "VERB" in _kinds(
                                low[len(head):mine.start()].split()[-1])):
        # "Working on cars helps me relax": the gerund phrase is the subject, the user its object.
        return _tidy(_user_at(t, mine))
    if inherited and re.match(r"\d+(?:-\d+)? [a-z]+s? (?:a|per|each|every) (?:day|week|month)\b", low):
        return _tidy("User does " + _pronouns_en(t))  # "4 runs a week, Tue/Thu/Sat/Sun": how often the user does it
    want = re.match(r"^(?:honestly |so )?what i ((?:really |actually |truly )?)(want|need)(?: most)? is (?=to|for)", low)
    if want:
        return _tidy(f"User {want.group(1)}{want.group(2)}s " + _pronouns_en(t[want.end():]))  # "what i really want is to ..."
    practice = re.match(r"^~?(\d+) ?(?:min|mins|minutes) of ", low)
    if practice:
        return _tidy(f"User does about {practice.group(1)} minutes of " + _pronouns_en(t[practice.end():]))  # "~30 min of piano every morning"
    days = re.match(r"^(?:every )?((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?((?: night| morning| evening)?) (?:are|is|=) (?:my )?", low)
    if days:
        return _tidy(f"User's {days.group(1).capitalize()}{days.group(2)}s are " + _pronouns_en(t[days.end():]))  # "sundays are meal prep days", "Sunday = batch cooking day"
    langs = re.match(r"^languages?\s*[:=]\s*", low)
    if langs:
        return _tidy("User's languages: " + t[langs.end():])  # "languages: tagalog (native), english, ..."
    rule = re.match(r"^(company|team|work|office|lab|school|house|shop|store) (rule|rules|policy|policies)\s*[:=]\s*", low)
    if rule:
        return _tidy(f"User's {rule.group(1)} {rule.group(2)}: " + _pronouns_en(t[rule.end():]))  # "company rule: no customer data in external tools"
    here = re.match(r"^(lefty|left-?handed|right-?handed|vegan|vegetarian|introvert|extrovert|coeliac|celiac|diabetic|new mom|new dad) here\b", low)
    if here:
        word = {"lefty": "left-handed"}.get(here.group(1), here.group(1))
        article = "" if word.endswith(("handed", "ic")) or word in ("vegan", "vegetarian") else ("an " if word[0] in "aeiou" else "a ")
        return f"User is {article}{word}"  # "lefty here 😅 ...": what the user is, the rest is the request
    aim = re.match(r"^(?:the (?=plan\b)|my )?(?=(?:(?:long[- ]term|lifelong|life|big|biggest|ultimate|real) )?(?:plan|goal|target|aim|resolution|priority|dream)s?\b(?: for [\w ]{1,20}?)?(?: this| next)?"
                   r"(?: year| month| week| summer| semester| term)?\s*(?:is|are|=|:))", low)
    if aim:
        return _tidy("User's " + _pronouns_en(t[aim.end():]))  # "plan is to move apartments end of next month"
    appt = re.match(r"^(?:my |the )?(dentist|doctor|doc|gp|vet|physio|therapist|optometrist|dermatologist|orthodontist|haircut|checkup|check-up|"
                    r"interview|exam|flight|appointment)(?: appt| appointment)?\b[ ,:-]*(?=\S)"
                    r"(?!(?:said|says|told|thinks|thought|reckons|reckoned|recommended|suggested|wants|wanted|confirmed)\b)", low)
    if appt and inherited and not _FINITE_EN.search(low, appt.end()):
        # "dentist thurs at 3pm": an appointment typed as its noun and its time.
        noun = appt.group(1)
        what = f"{noun} appointment" if noun in ("dentist", "doctor", "doc", "gp", "vet", "physio", "therapist", "optometrist",
                                                 "dermatologist", "orthodontist") else noun
        return _tidy(f"User has {'an' if what[0] in 'aeiou' else 'a'} {what} {_pronouns_en(t[appt.end():])}")
    retired = re.fullmatch(r"(retired|former|ex-) ?((?:[a-z-]+ ){0,3}([a-z-]+))[.!]*", low)
    if retired and inherited and not re.search(r"\b(?:last|next|this|ago|early|recently|years?|months?|weeks?|in|at|from|after)\b", retired.group(2)) \
            and _kinds(retired.group(3)) & {"NOUN"} and "ADV" not in _kinds(retired.group(3)):
        # "Retired civil engineer, so ...": what the user is, the "I'm a" left out.
        article = "an" if retired.group(1)[0] in "aeiou" else "a"
        return _tidy(f"User is {article} {retired.group(1)}{'' if retired.group(1).endswith('-') else ' '}{retired.group(2)}")
    if gerund and inherited and _HABITUAL.search(low) and not re.search(r"\b(?:now|currently|this|next|tomorrow|tonight)\b", low) \
            and not re.search(r"\b(?:is|are|was|were|has|have|had|isn't|aren't|makes?|helps?|keeps?)\b|'s\b", low) \
            and "ADJ" not in _kinds(head) and "but" not in low.split()[:3]:
        # "studying at night after work usually 9-11pm": what the user does, as a habit
        verb = _verb_of_gerund(head)
        if verb:
            return _tidy("User " + _pronouns_en(verb + t[len(head):]))
    if gerund and inherited:
        return _tidy("User is " + _pronouns_en(t[:1].lower() + t[1:]))  # "Flying to Denver next week"
    lead = re.match(r"^(?:(?:still|just|now|currently|really|always|finally|also|so|super|pretty|totally) )*"
                    r"(?:gonna|going to|trying to|hoping to|planning to|aiming to|looking to|working to|about to|(?:stoked|excited|thrilled|pumped|psyched) (?:to|about)|(\w+ing))\b", low)
    if lead and (mine if lead.group(1) else mine or inherited) and (lead.group(1) is None or "VERB" in _kinds(lead.group(1))) \
            and not (lead.group(1) and _FINITE_EN.search(low, lead.end(), mine.start() if mine else len(low))) \
            and not (mine and _FINITE_EN.search(low, mine.end())):
        # "Still following my passion for dance", "Gonna continue my edu": the "I'm" left out.
        return _tidy("User is " + _pronouns_en(t[:1].lower() + t[1:]))
    if inherited and _kinds(head) & {"VERB", "AUX"} | ({"VERB"} if head.endswith("ed") else set()) \
            and not _own_subject(t):
        return _tidy("User " + _pronouns_en(agree(t[:1].lower() + t[1:])))  # "Dyed my hair last week"
    dream = re.match(r"^it(?:'s| is| has)(?: been)? (?:a|my) ((?:[\w-]+ )?)dream (?:of mine )?(to .+)$", t, re.I)
    if dream:
        return _tidy(f"User's {dream.group(1)}dream is {_pronouns_en(dream.group(2))}")
    opener = low.split(" ", 1)[0].strip(",.:;!")
    if re.search(r"\b(?:my|me)\b", low) and "VERB" in _kinds(opener) and not re.match(r"^\w+ me\b", low):
        # "flying to Denver for my cousin's wedding", "want to get my cert": the user's own doing
        if opener.endswith("ing") and not _FINITE_EN.search(low, 0, re.search(r"\b(?:my|me)\b", low).start()):
            return _tidy("User is " + _pronouns_en(t[:1].lower() + t[1:]))
        if opener in ("want", "wanna", "need", "hope", "plan", "love", "like", "hate", "prefer") \
                or opener == "used" and low.startswith("used to "):
            return _tidy("User " + _pronouns_en(agree(re.sub(r"^wanna\b", "want to", t[:1].lower() + t[1:]))))
    adverb = re.match(r"(?:just|also|finally|recently|actually|even|then|once) (?=[a-z])", low)
    verb = low[adverb.end():].split(" ", 1)[0].strip(",.:;!") if adverb else head
    if not gerund and _past(verb) and "VERB" in _kinds(verb) and not re.match(r"^\w+ (?:me|us)\b", low[len(adverb.group(0)) if adverb else 0:]) \
            and not re.match(r"^\w+(?: [\w-]+){0,2} (?:is|are|was|were)\b", low):
        # ("Just took my friends hiking": an adverb before the verb.)
        # "Twisted my knee last Friday", "Had a check-up with my doctor": the "I" left out
        # ("Made me realize ..." is something else acting on the user, and "Roasted chicken is
        # one of my favorites" has a subject of its own).
        return _tidy("User " + _pronouns_en(t[:1].lower() + t[1:]))
    first = re.search(r"\b(?:my|me)\b", t, re.I)
    if first and not re.search(r"\b(?:i|i'm|i've|i'd|i'll)\b", low[:first.start()]):
        # "Playing video games are my main hobbies" -> "... are User's main hobbies";
        # "Pottery helps me relax" -> "Pottery helps the user relax"
        return _tidy(_user_at(t, first))
    if inherited and DIET_ALONE.match(low):
        return _tidy("User is " + carried_verbs(_pronouns_en(t[:1].lower() + t[1:])))  # "vegetarian, have been for 8 years"
    article = en_state_article(low) if inherited else None
    if article is not None:
        return _tidy("User is " + article + _pronouns_en(t[:1].lower() + t[1:]))  # "huge fan of 70s soul"
    if inherited and re.match(r"~?\d+ ?(?:min|mins|minutes) (?:of )?[a-z]+ (?:every|each|a day|daily)\b", low):
        return _tidy("User does " + _pronouns_en(t))  # "10 min meditation every morning"
    if inherited and not _own_subject(t):
        # "Went camping last summer" (the speaker's own doing): the subject was left out;
        # "goal for this year: ..." is the user's.
        first = low.split(" ", 1)[0].strip(",.:;!")
        kinds = _kinds(first)
        if kinds and "VERB" not in kinds and "AUX" not in kinds and "ADV" not in kinds and not first.endswith("ed"):
            second = (low.split() + ["", ""])[1]
            if _SCHEDULED.search(low) and "ADJ" not in kinds and "VERB" not in _kinds(second) and not re.search(r"[:=]", low) and not _FINITE_EN.search(low) \
                    and not _SCHEDULED.match(low) and not re.match(r"(?:week|weekend|morning|evening|night|day)s?\b|weeknights?\b", low) \
                    and not any(w.endswith("ed") and w != "wed" and "VERB" in _kinds(w) or w in ("got", "get", "gets", "do", "does", "did")
                                for w in re.findall(r"[a-z]+", low)):
                return _tidy("User has " + _pronouns_en(t))  # "gym mon wed fri 6am before work": a standing slot
            return _tidy("User's " + _pronouns_en(t))
        return _tidy("User " + _pronouns_en(agree(t[:1].lower() + t[1:])))
    return _tidy(_name_first(t))


# When something comes round: weekdays, a clock time, "every", "daily".
_SCHEDULED = re.compile(r"\b(?:mon|tues?|wed|thurs?|fri|sat|sun)(?:days?|s)?\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
                        r"|\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b|\b(?:every|daily|weekly|nightly)\b")


def verbless(phrase: str) -> bool:
    """Whether a short English phrase has no finite verb: "at a fintech in toronto", not
    "at the gym said i should eat more protein"."""
    low = phrase.lower()
    if _FINITE_EN.search(low):
        return False
    return not any(_past(w) or _third(w) or w in _SAME_PAST or _vbz(w) and w in ("says", "wants", "thinks", "needs", "knows", "reckons")
                   for w in re.findall(r"[a-z]+", low))


_SAID_AS_LETTERS = frozenset("sre swe sde sdet hr mba md rn emt lpn np ml mle seo sem fbi nhs".split())


def article(word: str) -> str:
    """ "a" or "an" by how `word` sounds: "an accountant", "a ux designer", "an sre"."""
    w = word.lower()
    if re.match(r"u[bcdfgklmnprstvxz][aeiou]|u[xs]\b|eu|one\b|uni", w):
        return "a"  # "a university lecturer", "a ux designer"
    if w in _SAID_AS_LETTERS or re.fullmatch(r"[fhlmnrsx][bcdfghjklmnpqrstvwxz]{1,3}", w):
        return "an"  # an acronym said letter by letter: "an sre", "an hr manager"
    return "an" if w[:1] in "aeiou" else "a"


def _name_first(t: str) -> str:
    """Third person, with the user named at their first mention ("at our firm anything over
    $5k needs sign-off" -> "At the user's firm ..."), not a "their" that points nowhere."""
    m = re.search(r"\b(?:my|our|me|us)\b", t, re.I)
    if m is None or _acronym(m.group(0)) or re.search(r"\b(?:user|i|i'm|i've|i'd|i'll|we|we're|we've)\b", t[:m.start()], re.I):
        return _pronouns_en(t)
    return _user_at(t, m)


def _user_at(t: str, m: re.Match[str]) -> str:
    """`t` in third person with the first-person word `m` naming the user: "Pottery helps me
    relax" -> "Pottery helps the user relax"; "my"/"our" -> "User's" first, "the user's" later."""
    if m.group(0).lower() in ("my", "our"):
        said = "the user's" if t[:m.start()].strip() else "User's"
    else:
        said = "the user"
    return _pronouns_en(t[:m.start()]) + said + _pronouns_en(t[m.end():])


def we_named_en(low: str, company: str = "") -> str:
    """Whom an English "we" is: the user's team, partner, family or the company the
    conversation named ("kids" after "my kids and I"), or "" when nothing says."""
    if _EN_YOUNG.search(low):
        return company  # "We loved skateboards back then, sometimes we even left class early": friends of old, no team
    if re.search(r"\b(?:we (?:first |actually |originally )?met|became friends|started dating)\b", low) and not _EN_PARTNER.search(low):
        return company  # "We actually met in an engineering class": whoever "we" are, not a team
    if _EN_PARTNER.search(low):
        return "partner"  # "we got married in June 2019", "we met at work and got married"
    if _EN_WORK.search(low):
        return "team"
    if _EN_FAMILY.search(low) or company == "family":
        return "family"
    return company


_WE_ARE_BUSINESS = re.compile(
    r"^(are)\s+(?:just |only )?(?:a|an)\s+(?:[\w-]+\s+){0,3}(?:bakery|shop|store|cafe|café|coffee shop|restaurant|startup|agency|firm|"
    r"studio|clinic|practice|business|charity|nonprofit|non-profit|farm|salon|brewery|bar|pub|hotel|b&b|food truck|"
    r"bookshop|bookstore|boutique|consultancy|workshop|garage|pharmacy|family business)\b", re.I)


# What a household has is the user's: its children and animals.
_WE_HAVE = re.compile(
    r"^((?:also |still |now )?(?:have got|have|own))\s+(?:a|an|one|two|three|four|five|\d+)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:(?!(?:server|bot|channel|repo|project|app|tool|service|cluster|machine|database|db|group|team|chat|account|folder|file|doc|script|pipeline|workflow|room|meeting|band|podcast|company|business)\b)[\w-]+(?=\s+(?:named|called)\b)|kids?|children|sons?|daughters?|twins|cats?|dogs?|pups?|puppies|kittens?|pets?|horses?|ponies|pony|rabbits?|bunnies|"
    r"hamsters?|guinea pigs?|parrots?|budgies?|chickens|hens|goats?|tortoises?|turtles?|lizards?|snakes?)\b"
    r"(?!['’-]|\s+(?:sitters?|walkers?|walking|food|beds?|toys?|groomers?|trainers?|park|show|insurance|door|minders?|care|club|party|class|classes|lessons?|daycare|problem|cafe|friendly|hair|allerg\w*)\b|\s+(?:in|at) (?:the|our|my|a|work)\b|\s+right now\b|\s+(?:that|who|which) need)", re.I)


def _group_en(t: str, low: str, company: str = "") -> str:
    team = re.match(r"(?:the )?((?:(?!our\b|my\b)[a-z]+ )?team\b)", low)
    if team:
        return "User's " + _pronouns_en(t[team.start(1):team.start(1) + 1].lower() + t[team.start(1) + 1:])  # "backend team is all go"
    if low.startswith("our"):
        return "User's" + _pronouns_en(t[3:])
    rest = re.sub(r"^(?:'re)\b", "are", re.sub(r"^'ve\b", "have", t[2:].lstrip()))
    rest = re.sub(r"^us\b", "", rest)
    household = _WE_HAVE.match(rest)
    if household:
        # "we've got a rescue horse called Biscuit", "we have two cats": the user's own.
        return "User has " + _pronouns_en(rest[household.end(1):].lstrip())
    business = _WE_ARE_BUSINESS.match(rest)
    if business:
        # "we're a tiny bakery, just me and my sister": where the user works, not a team.
        return "User works at " + _pronouns_en(rest[business.end(1):].lstrip())
    size = re.match(r"^are (?:just |only )?a (?:small |tiny |big |little )?team of ([\w-]+ [^,]*)", rest, re.I)
    if size:
        return "User's team has " + _pronouns_en(size.group(1)) + _pronouns_en(rest[size.end():])  # "we are a team of five engineers"
    who = we_named_en(low, company)
    if who == "team":
        return f"User's {who} " + _pronouns_en(agree(rest))
    if who:
        return f"User and their {who} " + _pronouns_en(rest)  # "we" after "I took my kids ..."
    return "User and others " + _pronouns_en(rest)


def _entity_en(t: str, subject: Subject, phrase_end: int, inherited: bool) -> str:
    """ "My son Noah has ..." -> "User's son Noah has ..."; "He loves ..." -> "User's son Noah loves ..."."""
    name = "User's " + subject.label if subject.relation else subject.name  # ("Margaret has a dodgy knee")
    if phrase_end:
        # The user's own words for it: "my older sister Anna" -> "User's older sister Anna".
        said = re.sub(r"^(?:my|our|the)\s+", "", t[:phrase_end].strip(" ,"), flags=re.I)
        rest = t[phrase_end:]
        who = re.match(r"^,?\s*who(?:'s| is) ", rest)
        if who:
            # "my son Tobias who's 9 is obsessed with football": his age, then what he is.
            aged = re.match(r"(\d+|an? [\w-]+)(?: years? old)?,? (?=(?:is|has|was|loves|likes|hates|goes)\b)", rest[who.end():])
            # ("my wife Denise, who is a pharmacist, keeps telling me ...": what she is, then what she does.)
            aside = re.match(r"(an? [\w -]{2,30}?), (?=[a-z]+s\b)", rest[who.end():]) if not aged else None
            rest = f", who is {aged.group(1)}, {rest[who.end() + aged.end():]}" if aged \
                else f", who is {aside.group(1)}, " + rest[who.end() + aside.end():] if aside else " is " + rest[who.end():]
        owner = "User's " if subject.relation else ""  # ("Noor has a peanut allergy": named, never placed)
        return f"{owner}{said}" + _pronouns_en(contracted_is(rest) if not rest.startswith(",") else rest, about_other=True)
    low = t.lower()
    m = re.match(r"^(?:he|she|they)(?='s\b|\b)", low) or (None if subject.plural else re.match(r"^it(?='s\b|\b)", low))
    if m:
        rest = t[m.end():]
        rest = re.sub(r"^'s\b", " has" if perfect_s(rest) else " is", rest)
        rest = re.sub(r"^'re\b", " are", rest)
        rest = re.sub(r"^'ve\b", " has" if not subject.plural else " have", rest)
        rest = re.sub(r"^'d\b", " would", rest)  # "She'd often come": not "User's mum'd"
        rest = re.sub(r"^'ll\b", " will", rest)
        if not subject.plural:
            rest = " " + agree(rest.lstrip()) if m.group(0) == "they" else rest
        return name + _pronouns_en(rest, about_other=True)
    m = re.match(r"^(?:his|her|their)\b", low)
    if m:
        # "her little brother Rory's 3": a name and its "is".
        rest = re.sub(r"\b([A-Z][a-z]+)'s (?=\d|(?:a|an|so|very|really|allergic|vegetarian|vegan|scared|afraid|into)\b)", r"\1 is ", t[m.end():])
        rest = re.sub(r"^ name's\b", " name is", rest)  # "her name's yuki"
        return f"{name}'s" + _pronouns_en(rest, about_other=True)
    if subject.name and low.startswith(subject.name.lower()) and not re.match(r"\w", t[len(subject.name):len(subject.name) + 1]):
        return name + _pronouns_en(contracted_is(t[len(subject.name):]), about_other=True)  # "ava's vegetarian"
    m = re.match(rf"^(?:the|that|this)\s+{re.escape(subject.relation)}\b", low)
    if m:
        return name + _pronouns_en(t[m.end():], about_other=True)
    named = re.match(r"^([A-Z][a-z]+)\b(?! [A-Z])", t)
    if subject.plural and named and _own_subject(t):
        # "Pepper loves lounging on the couch" about the user's dogs: one of them, by name.
        return f"User's {_singular(subject.label)} {named.group(1)}" + _pronouns_en(t[named.end():], about_other=True)
    rest = t[:1].lower() + t[1:]
    return f"{name} " + _pronouns_en(rest if subject.plural else agree(rest), about_other=True)


def _singular(noun: str) -> str:
    """ "dogs" -> "dog", "puppies" -> "puppy" (the last word of a label)."""
    from lemminflect import getLemma

    head, _, last = noun.rpartition(" ")
    lemma = (getLemma(last, upos="NOUN") or (last,))[0]
    return f"{head} {lemma}".strip()


_FUNCTION_WORDS = frozenset("""on off in at to for with from of or but the a an this that these those by about into
onto over under than as if so every each""".split())
# Past verbs that say the whole fact alone: "User retired".
_WHOLE_ALONE = frozenset("""retired graduated married divorced moved relocated quit resigned emigrated immigrated
recovered converted transitioned enlisted""".split())


# Words that can be nouns but never name what a later "it" is.
_NOT_ANTECEDENT = frozenset("how what way thing things lot one time user user's their his her its our your them they".split())
# "it" in set phrases that name nothing: "make it to", "take it all in", "need it", "when it rains".
_IDLE_IT = re.compile(r"\b(?:make|made|making|makes|take|took|taking|takes|need|needs|needed) it\b"
                      r"|\bit(?:'s| is| was) (?:\w+ )?(?:important|hard|easy|nice|great|good|fun|tough|difficult|worth|time) to\b"
                      # "when it rains", "once it gets dark": the weather, the hour.
                      r"|\bit(?:'s| is)? (?:rains?|raining|snows?|snowing|pours|pouring|storms|storming)\b"
                      r"|\bit (?:gets|is|'s) (?:too |really |very )?(?:cold|hot|dark|late|warm|sunny|windy|rainy|freezing)\b",
                      re.I)


# "it" as the subject of a clause that describes a noun ("the smell and taste it adds to
# dishes", "the peace it brings"): what "it" is was said elsewhere.
_RELATIVE_IT = re.compile(r"\b(?:the|a|an|this|that|my|their|all the)\s+(?:[a-z]+\s+){0,2}?[a-z]+\s+it\s+"
                          r"(?:[a-z]+(?:s|ed)|has|had|can|could|will|would|gave|brought|made|took)\b", re.I)


def dangling_it(content: str) -> bool:
    """Whether an English memory says "it" with nothing before it that "it" could name:
    "User loves how uncomplicated it is", "User heard it's great for kayaking" (the lake
    was named in another turn), not "User can't stand cilantro, it tastes like soap". A
    word the dictionary knows as a noun, after the memory's first verb, is taken as what
    "it" names."""
    m = re.search(r"\b(?:it|It)\b", content)  # ("IT band", "IT support": not "it")
    if m is None or _IDLE_IT.search(content):
        return False
    relative = _RELATIVE_IT.search(content)
    if relative:
        # ...unless a noun before the phrase is what "it" names ("loves hiking because of the peace it brings").
        words = re.findall(r"[a-z][a-z'-]*", content[: relative.start()].lower())
        if words and words[0] in ("user", "user's"):
            words = words[1:]
        return not any(("NOUN" in _kinds(w) or w.endswith("ing")) and w not in _NOT_ANTECEDENT for w in words[1:])
    words = re.findall(r"[a-z][a-z'-]*", content[: m.start()].lower())
    if words and words[0] in ("user", "user's"):
        words = words[1:]
    return not any(("NOUN" in _kinds(w) or _product_name(w)) and w not in _NOT_ANTECEDENT and not _plural_noun(w)
                   and not (words[n] == "to" and "VERB" in _kinds(w) and w not in _PLACES_TO)
                   for n, w in enumerate(words[1:]))  # (after "to", "balance" is a verb; "walks to work" is a place)


def _product_name(word: str) -> bool:
    """ "ynab" in "was on ynab but cancelled it": a name typed in lower case, which "it" may name."""
    return len(word) > 2 and word.isalpha() and not _kinds(word) and word not in _FUNCTION_WORDS


def _plural_noun(word: str) -> bool:
    """ "dogs", "friends": a plural is never what "it" names ("taught their dogs to balance on it")."""
    from lemminflect import getAllLemmas

    lemma = (getAllLemmas(word).get("NOUN") or (word,))[0]
    return lemma != word and word.endswith("s") and word not in ("news", "class", "glass", "bus", "process", "business")


_PLACES_TO = frozenset("work school bed church class college uni town market court".split())


# A Chinese memory body of times only ("19号到21号", "上午9点到下午5点", "周二到周六").
_ZH_ONLY_TIME = re.compile(r"(?:每|[\d一二三四五六七八九十两]+(?:号|日|点|点半|月|年|月份)?|周[一二三四五六日天末]|星期[一二三四五六日天]"
                           r"|礼拜[一二三四五六日天]|上午|下午|晚上|早上|中午|凌晨|到|至|~|～|-|—|、|和|半|[:：]\d\d)+")


# When and how often, at the start of a Chinese memory body, and a verb that needs its
# object: left alone ("饭后吃", "上个月查了", "十号回来"), they say nothing.
_ZH_WHEN = re.compile(r"^(?:(?:每天|天天|从小|小时候|每周[一二三四五六日天]?|每个?月|早上|晚上|中午|下午|上午|饭后|饭前|睡前|上个?月|下个?月|这个?月|上周|下周|"
                      r"下下周[一二三四五六日天]?|这周|周[一二三四五六日天末]|[\d一二三四五六七八九十]+号|昨天|今天|明天|刚才|刚刚|刚|已经|又|都|就|也|还|一直|"
                      r"经常|老是|一般|平时|午休|下班后?|上班前|周末|工作日|每晚|睡前|每次)[，,]?)+")
# How often, and of what nothing: "一周三次左右".
_ZH_ONLY_OFTEN = re.compile(r"(?:一周|每周|一个月|每个?月|一天|每天|一年|每年)?[\d一二三四五六七八九十两几]+(?:次|回|趟|天)(?:左右|多|吧|的样子)?")
# ("孩子爱吃的": what the child likes, cut off where it was to be named.)
# ("每次都吃光": ate what up; "每周六全天": all day at what.)
_ZH_BARE_VERB = re.compile(r"(?:不|没|没有|不太|不怎么|最|都|也)?(?:爱|喜欢)?(?:吃|喝|看|查|用|弄|去|做|拿|买|玩|听|回来|回去|回|推到|改到|挪到|换成|到|一片|一次|两次|一粒"
                           r"|吃光|吃完|喝光|喝完|看完|用完|全天|一整天|学|练)[了的啊呀吧]*")


# Words an English sentence does not end on: a memory ending on one was cut off.
_EN_OPEN_END = re.compile(r"\b(?:never|always|and|or|but|the|a|an|their|my|his|her|of|very|than|because|if|is|are|was|were|does"
                          r"|(?:loves?|likes?|wants?|needs?|hates?|tries|trying|going|plans?|hopes?) to)\W*$", re.I)  # "User loves to"


_HABITUAL = re.compile(r"\b(?:usually|always|normally|every (?:day|morning|night|evening|week)|daily|weekly|"
                       r"most (?:days|nights|mornings)|on weekends|after work|before work)\b")


def _verb_of_gerund(gerund: str) -> str:
    """ "studying" -> "studies": the gerund's verb after a third-person subject, or "" if unknown."""
    from lemminflect import getAllLemmas, getInflection

    lemma = (getAllLemmas(gerund).get("VERB") or ("",))[0]
    inflected = getInflection(lemma, "VBZ") if lemma else ()
    return inflected[0] if inflected else ""


def readable(content: str, lang: str = "en", subject: str = "user") -> bool:
    """Whether a memory about the user reads as a sentence. English: after "User" (and any
    adverbs) comes a verb; "User weekly rotation", "User no deploys after 3pm", "User
    sometimes it feels overwhelming" are word-swapped fragments (a word the dictionary does
    not know is given the benefit of the doubt). Chinese: something is said after 用户 —
    "用户一般般", "用户刚好", "用户就喜欢" are leftovers of a clause."""
    if lang == "zh":
        body = without_time(content)
        if subject not in ("user", "") and body.startswith(subject) and "用户" not in body:
            return not _ZH_BARE_VERB.fullmatch(_ZH_WHEN.sub("", body[len(subject):]))  # "朵朵对鸡蛋过敏"
        if "用户" not in body:
            return False
        owner = re.match(f"用户的{re.escape(subject)}{re.escape(subject[-1:])}?", body) if subject not in ("user", "") else None
        if owner:
            # "用户的老婆天天买": bought what, the clause before said; "用户的妈妈每晚睡前": did what, it lost.
            rest = _ZH_WHEN.sub("", body[owner.end():])
            return bool(rest) and not _ZH_BARE_VERB.fullmatch(rest)
        if not body.startswith("用户") or body.startswith("用户的"):
            return True
        body = body[2:]
        if _ZH_ONLY_TIME.fullmatch(body):
            return False  # "用户19号到21号", "用户周二到周六": when, with what it was lost
        bare = _ZH_WHEN.sub("", body)
        if len(bare) <= 3 and re.search(r"(?:[一二三四五六七八九十两\d]|度)$", bare) \
                and not re.fullmatch(r"(?:大|高|初|研|博|小学|初中|高中)[一二三四五六]|[一二三四五六]年级", bare) \
                and not re.search(r"[是有在爱会要想怕住吃喝学做开养姓叫考读教病疼岁了过职]", bare):
            return False  # "用户英语一", "用户二度": a word of the answer, no statement
        if re.fullmatch(r"[^，。]{0,4}?(?:去|来|回)", bare) \
                or re.fullmatch(r"(?:去|来|回)", _ZH_WHEN.sub("", re.sub(r"^(?:打算|准备|计划|想|要|会)", "", body))):
            return False  # "用户一个人去", "用户打算每周二周四晚上下班后去": went where, the clause before said
        if _ZH_ONLY_OFTEN.fullmatch(bare):
            return False  # "用户一周三次左右": three times a week of what, the clause before said
        if any(_ZH_BARE_VERB.fullmatch(_ZH_WHEN.sub("", said)) for said in (body, re.sub(rf"^{_ZH_ONLY_TIME.pattern}", "", body))):
            return False  # "用户饭后吃", "用户上个月查了", "用户推到下下周一了": what, the clause lost
        return len(body) > 1 and not re.search(r"(?:喜欢|爱|想|要|觉得|知道|打算|准备)[了啊呀吧的]*$", body) \
            and not re.fullmatch(r"(?:就|也|还|刚|都|确实)?(?:一般般?|刚好|还行|还好|可以|不错|挺好|这样|那样|是的?)[了啊呀吧的嘛]*", body)
    if not re.search(r"\buser\b", content, re.I) and not (subject not in ("user", "") and content.startswith((subject + " ", subject + "'s "))):
        return False  # "It's a total dream come true": whose, the words no longer say
    if re.match(r"[\w-]+ (?:yes|no), [\w-]+ (?:yes|no)\b", content, re.I):
        return False  # "Mackerel yes, tuna no the user can't stand ...": answers to a list, not a sentence
    if re.match(r"(?:for|with|to|of|about|from|by)\b", content, re.I):
        return False  # "For always having the user's back": what the thanks were for, no statement
    if _EN_OPEN_END.search(without_time(content)):
        return False  # "User's landlord never", "User is keen on the": the clause was cut
    first = re.match(r"^([A-Z][a-z]+s) (?:the user|them|their)\b", content)
    if first and "VERB" in _kinds(first.group(1).lower()):
        return False  # "Makes the user think of ...": what does, the clause lost
    owned = re.match(r"^User's\s+(.+)", content)
    if owned:
        # "User's portable smokers", "User's gf, Toby": someone's something, and nothing said of it.
        words = re.findall(r"[A-Za-z][A-Za-z'-]*|\d+", without_time(owned.group(1)))
        if words and words[0].lower() in _DAY_WORDS:
            # "User's weeknights 2 hrs, Saturdays 5ish": hours of what, the question said.
            return any("VERB" in _kinds(w.lower()) or "AUX" in _kinds(w.lower()) for w in words)
        return any("VERB" in _kinds(w.lower()) or "AUX" in _kinds(w.lower()) or "'" in w
                   or n > 0 and (w.isdigit() or "ADJ" in _kinds(w) or w.islower() and not _kinds(w))
                   for n, w in enumerate(words))
    m = re.match(r"^User\s+(.+)", content)
    if not m:
        return True
    if re.match(r"(?:likes?|loves?),", m.group(1)):
        return False  # "User like, why": "like" was a filler
    if re.match(r"(?:likes|loves) (?:in|at|on|for|with|when)\b", m.group(1)):
        return False  # "User likes in sports": "like" was a filler
    said = without_time(m.group(1)).strip(" .!")
    said = re.sub(r"^(?:just|finally|recently|already|also|actually|even) ", "", said)
    said = re.sub(r"^and (?:others|their [a-z]+) ", "", said)  # "User and others moved": moved where, the clause lost
    if re.fullmatch(r"is (?:starting|beginning|leaving|going|coming|moving|heading off|flying out)(?: (?:the day after tomorrow|tomorrow|today|tonight|"
                    r"soon|next \w+|this \w+|on \w+))?(?: (?:morning|afternoon|evening|night))?", said):
        return False  # "User is starting next month": starting what, the clause lost
    if re.fullmatch(r"[a-z]+", said) and _past(said) and said not in _WHOLE_ALONE:
        return False  # "User won (2022-11-05)": won what, the clause lost
    if re.match(r"(?:\d|[£$€¥])", m.group(1)) or _NUMBER_WORD.fullmatch(m.group(1).split(" ")[0]):
        return False  # "User 4 runs a week", "User £300 a month", "User four nights a week": a number where the verb should be
    if re.match(r"(?:likes|loves) (?:\d|[£$€¥])", m.group(1)):
        return False  # "User likes £300 a month": "like" was a filler
    words = re.findall(r"[a-z][a-z']*", m.group(1).lower())
    if words and words[0] in _FUNCTION_WORDS:
        return False  # "User on ands off the court": a phrase, not a statement
    for n, word in enumerate(words[:5]):
        if word in ("gonna", "wanna", "gotta", "and") or (word == "no" and words[n + 1 : n + 2] == ["longer"]):
            return True
        if word in _FUNCTION_WORDS - {"so"} or word in _DAY_WORDS:
            return False  # "User usually on the lakefront path", "User tues thurs sat": no verb before the phrase
        kinds = _kinds(word)
        if word.endswith("ing") and word not in ("bring", "sing", "sting", "swing", "cling", "fling", "wring"):
            return False  # "User always supporting each other": no finite verb
        base = word[:-1] if word.endswith("s") else ""
        if base and "ADJ" in _kinds(base) and words[n + 1 : n + 2] in (["of"], ["with"], ["about"]):
            return False  # "User always fulls of amazing memories": an adjective made a verb
        if kinds & {"VERB", "AUX"}:
            return True
        if "ADV" in kinds and word != "no":
            continue
        return not kinds
    return True


# After "'s", a word that makes it "has" on its own ("he's been", "she's got").
_HAS_NEXT = frozenset("been got gotten had moved gone left become decided started finished rescheduled".split())
# Adverbs that may stand between "'s" and a participle ("he's never used power tools").
_PERFECT_ADVERBS = frozenset("never ever already just always recently finally also".split())
# After these, any participle makes "'s" "has" ("she's never married", "he's already booked").
_PERFECT_ONLY = frozenset("never ever already".split())
# A span of time after the participle says "has": "'s lived with us since 2023", "'s worked there for 10 years".
_SPAN = re.compile(r"\b(?:since|for (?:\d|a |an |years|months|weeks|ages|decades|the (?:past|last))|all (?:my|his|her|their) life)")


@lru_cache(maxsize=4096)
def _participle(word: str) -> tuple[bool, bool]:
    """Whether `word` is a verb's past participle, and whether it is one that differs from the
    past ("taken", "grown": never an adjective's look-alike like "obsessed" or "married")."""
    from lemminflect import getInflection

    found = lemmas(word)
    verbs = [lemma for lemma in found.get("VERB", ()) if word in getInflection(lemma, "VBN") and word != lemma]
    irregular = any(word not in getInflection(lemma, "VBD") for lemma in verbs) and "ADJ" not in found
    return bool(verbs), irregular


def perfect_s(rest: str) -> bool:
    """Whether the "'s" that `rest` opens is "has": "'s been", "'s grown", "'s never used power
    tools", "'s lived with us since 2023"; not "'s married", "'s obsessed with", "'s used to it"."""
    words = re.findall(r"[\w'-]+", rest[2:].lower())[:3]
    if not words or not words[0].isalpha():
        return False  # "'s 74, been living with us": the age and its "is"
    if words[0] in _HAS_NEXT:
        return True
    adverb = words[0] if words[0] in _PERFECT_ADVERBS and len(words) > 1 else ""
    verb = words[1] if adverb else words[0]
    participle, irregular = _participle(verb)
    if not participle or words[-1] == "to":
        return False
    return irregular or adverb in _PERFECT_ONLY or ("ADJ" not in _kinds(verb) and _SPAN.search(rest.lower()) is not None)


def contracted_is(rest: str) -> str:
    """After a subject phrase, "'s" is "is" or "has" ("my sister's vegan", "my dad's been
    ill") unless a noun follows ("my son's school"): the words after it, spaced."""
    m = re.match(r"^'s\s+(\S+)", rest)
    if not m:
        return rest if rest.startswith(("'", ",")) else " " + rest.lstrip(" ,")
    nxt = m.group(1).lower().strip(",.")
    after = re.match(r"^'s\s+((?:[\w-]+\s+){1,3}?)(?:is|was|will|has|had|are|were|starts|begins|takes|got)\b", rest, re.I)
    if after and not re.search(r"\b(?:and|but|so|or|then|because)\b", after.group(1), re.I) \
            and nxt not in ("a", "an", "the", "very", "so", "really", "not", "always", "never", "also", "still", "just"):
        return rest  # "my sister's wedding is in August", "my dog's vet checkup is on the 12th": a possessive before the verb
    if perfect_s(rest):
        return " has" + rest[2:]
    kinds = _kinds(nxt)
    if nxt in ("a", "an", "the", "not", "very", "so", "really", "always", "never", "also", "still", "now", "in", "on",
               "at", "from", "into", "allergic", "vegan", "vegetarian", "due", "pregnant", "expecting", "back", "home", "away",
               "retired", "married", "engaged", "divorced", "sick", "ill", "off", "out", "about", "only", "just", "finally",
               "here", "there", "over", "still", "going", "moving") or nxt.endswith("ing") or nxt.isdigit() \
            or (kinds and "NOUN" not in kinds and "PROPN" not in kinds):
        return " is" + rest[2:]
    return rest


_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b")


def _tidy(out: str) -> str:
    out = re.sub(r"\s+", " ", out).strip(" ,;:-")
    out = re.sub(r"\b(is|are|was|were) gonna\b", r"\1 going to", out)  # "User is gonna do their tax return"
    out = re.sub(r"\b(?<=User )gottas?\b", "has to", out)  # "i gotta block off june 20th"
    # "I like also cheese pizza" (as typed) -> "User also likes cheese pizza".
    out = re.sub(r"^(User(?:'s [\w-]+(?: [A-Z][a-z]+)?)?) (?!(?:is|was|has|does)\b)([a-z]+s) also\b", r"\1 also \2", out)
    out = _WEEKDAY.sub(lambda m: m.group(0).capitalize(), out)  # "last tuesday" as said in chat: a name
    out = re.sub(r"(?<![.\w][A-Z])[.!~]+$", "", out).rstrip()
    if out.endswith(")") and out.count(")") > out.count("("):
        out = out[:-1].rstrip()  # "User is a PhD student at scripps)": a bracket closed that this clause never opened
    out = _WHICH_FEELS.sub("", out)
    out = re.sub(r"\ba ([a-z]+) (classes|lessons|courses)\b", r"\1 \2", out)  # "taking a painting classes" as typed
    return out[:1].upper() + out[1:]


# ", which is nice for bonding", ", which has been pretty rough": how it felt, not the fact.
_WHICH_FEELS = re.compile(
    r",? which (?:is|was|has been|'s|made (?:it|me|them|the user)|feels?|felt) (?:so |really |pretty |very |super |quite |kind of |a bit |such )*"
    r"(?:a )?(?:nice|great|fun|rough|hard|tough|amazing|awesome|cool|good|lovely|exciting|stressful|sad|scary|wonderful|fantastic|"
    r"crazy|wild|bittersweet|tiring|exhausting|challenging|difficult|rewarding|relaxing|fulfilling|a blast|a relief|a bummer)\b.*$", re.I)


# -- Chinese ------------------------------------------------------------------------------

_ZH_KIN = (
    "老婆|老公|妻子|丈夫|爱人|儿子|女儿|孩子|宝宝|小孩|娃|闺女|爸爸|妈妈|爸|妈|父母|家人|公司|团队|同事|朋友|"
    "男朋友|女朋友|好朋友|好友|闺蜜|对象|老板|领导|哥哥|姐姐|弟弟|妹妹|猫|狗|老家"
)
_ZH_GROUP_NOUN = (r"(?:团队|公司|组|部门|项目|后端|前端|服务|系统|产品|架构|数据库|集群|线上|代码|仓库|学校|医院|单位|店|工厂|客户端|接口"
                  r"|网关|测试|生产|实验室|课题组|工作室|技术栈|消息队列|缓存|餐厅|饭店|厂|车间|诊所|门店|科室|班|校长|领导|老板|经理|主任|主管|组长|总监|"
                  r"小区|村|所|院|[\u4e00-\u9fff]{1,3}店)")
_ZH_GROUP_WORK = re.compile(rf"^(?:我们|咱们|我司)(?:的)?(?={_ZH_GROUP_NOUN})")
_ZH_FAMILY = re.compile(r"孩子|宝宝|家|老婆|老公|妻子|丈夫|父母|爸|妈|女儿|儿子|一起住|一起生活")
_ZH_WE_FAMILY = "用户一家"
# "我们这边用的是 JDK 17": a "we" of work, by its technical words.
_ZH_TECH = re.compile(r"JDK|Java|Python|Golang|Node|React|Vue|Kafka|MySQL|Redis|代码|项目|服务器|上线|发版|部署|数据库|接口|框架|技术栈|版本|需求评审|测试环境")
_ZH_LEAD = re.compile(r"^(?:对了|另外|还有(?=[，,]|我|你|就是)|然后|而且|但是|不过|所以|也就是说|可是|只是|并且|而|结果(?=我))[，,]?")
# A clause opening with when it happens, then who ("周末我们一般去爬山", "去年我们公司被收购了"):
# the speaker is put first, so the time follows them as it would after 我 ("用户周末一般去爬山",
# "用户的公司去年被收购了"), instead of 用户 in front and again where 我们 stood.
_ZH_TIME_WORD = (r"(?:每天|每周|每晚|每月|每年|周末|工作日|平时|平常|现在|目前|最近|今年|去年|前年|明年|今天|昨天|明天|后天"
                 r"|早上|上午|中午|下午|晚上|以前|之前|小时候|那时候|当时|后来|年底|月底|年初|[上下这本]个?(?:月|周|星期|礼拜)"
                 r"|五一|国庆|元旦|春节|过年|中秋|端午|清明|寒假|暑假|十一(?!点)"
                 r"|[上下这本]?周[一二三四五六日天]|\d{1,4}[年月号日])")
# (Not a 我 that owns what follows: "今年12月我好朋友结婚" is about the friend.)
_ZH_TIME_FIRST = re.compile(rf"^((?:{_ZH_TIME_WORD})+)[，,]?(我们|咱们|我(?!们|的|{_ZH_KIN}))")
_ZH_OTHER_START = re.compile(r"^(?:(?:这|那)(?:个(?!月|周末|周|星期|礼拜|季度|学期|假期|寒假|暑假|年)|是|些|种|样|里|边|家|位|款|次|本|篇|段|件|条)|他|她|它|你|您)")


# What is sung, read or watched is a title, quoted or not: "唱了一首月亮代表我的心".
_ZH_TITLE = re.compile(r"(?:唱|听|弹|看|读|写|拍)(?:了|过)?(?:一首|一部|一本|一篇|一曲|首|部|本)([^，。！？,!?]+)")


# Someone who tells the user what to do, with the user left out: "医生让少吃海鲜和喝啤酒".
_ZH_BIDDEN = re.compile(r"^(?:医生|大夫|营养师|教练|老师|老板|领导|主管|导师|爸妈|父母|我妈|我爸|妈妈|爸爸|老婆|老公)(?:让|叫|要|建议|不让|嘱咐|要求)(?!用户|我)")


def _zh_outside(text: str) -> str:
    m = _ZH_TITLE.search(text)
    if not m:
        return _outside(text, _zh_pronouns)
    return _outside(text[:m.start(1)], _zh_pronouns) + text[m.start(1):m.end(1)] + _zh_outside(text[m.end(1):])


def _zh_pronouns(part: str) -> str:
    part = re.sub(r"(?:我们家|咱们家|我家)的?", "用户家", part)
    part = re.sub(r"(?:我们|咱们|我)俩", "两人", part)
    part = re.sub(rf"(?:我们|咱们|我司)的?(?={_ZH_GROUP_NOUN})", "用户的", part)  # "我们团队这边用的是 JDK 17"
    part = re.sub(r"(?:我们|咱们)(?=[\u4e00-\u9fff]{2,6}(?:公园|广场|小区))", "", part)  # "去我们沈阳北陵公园": a place near them
    part = re.sub(r"(?:我们|咱们)", "用户团队" if _ZH_TECH.search(part) else _ZH_WE_FAMILY if _ZH_FAMILY.search(part) else "用户和同伴", part)
    part = re.sub(r"我的", "用户的", part)
    part = re.sub(rf"我(?=(?:{_ZH_KIN}))", "用户的", part)
    return re.sub(r"(?<![自忘无唯本])我", "用户", part)  # ("自我介绍" is a word, not the user)


# A job said as a bare noun ("幼师", "小学教师"): what the user is.
_ZH_BARE_JOB = (r"(?:一名|一个|个)?(?:小学|初中|高中|中学|大学|幼儿园|医院|银行|实习|兼职|全职|资深|高级|初级|自由|独立)?"
                r"(?:数学|语文|英语|物理|化学|生物|历史|地理|美术|音乐|体育)?"
                r"(?:幼师|教师|老师|律师|厨师|药师|技师|工程师|会计师|设计师|插画师|摄影师|程序员|医生|护士|柜员|职员|文员|店员|护工|保姆|月嫂|技术员|研究员|公务员)")


def chinese(text: str, subject: Subject, phrase_end: int = 0, inherited: bool = False) -> str:
    t = _ZH_LEAD.sub("", text.strip())
    t = re.sub(r"[。！!~～；;、]+$", "", t).strip(" ，,")
    if subject.kind != USER:
        display = _zh_display(subject)
        if phrase_end:
            # "老伴儿他血糖高", "老婆之后她回去上班": the 他 or 她 after the relation is the relation again.
            rest = re.sub(rf"^(儿?(?:{_ZH_TIME_WORD}|之后|以后|然后|后来)*)(?:他|她|它)(?!们)", r"\1", t[phrase_end:])
            return display + _zh_outside(rest)
        if re.match(r"^(?:他|她|它)(?!们)", t):
            return display + _zh_outside(t[1:])
        timed = re.match(rf"^((?:{_ZH_TIME_WORD}|之后|以后|然后|后来)+)(?:他|她|它)(?!们)", t)
        if timed:
            return display + _zh_outside(timed.group(1) + t[timed.end():])  # "国庆他会回来": he is the one named before
        for word in (subject.name, subject.relation):
            if word and t.startswith(word):
                return display + _zh_outside(t[len(word):])
        m = re.match(rf"^(?:这个|那个|这次|那次){re.escape(subject.relation)}", t)
        if m:
            return display + _zh_outside(t[m.end():])
        cleft = re.match(r"^([^，。他她它]{1,10}?(?:都|也|一般|平时|每天)?是)(?:他|她)(?!们)(?=[\u4e00-\u9fff])", t)
        if cleft:
            return _zh_outside(cleft.group(1)) + display + _zh_outside(t[cleft.end():])  # "早餐都是他做": the one named before does it
        return display + _zh_outside(t)
    if subject.joint:
        return f"用户和{subject.joint}" + _zh_outside(t[phrase_end:])
    first = _ZH_TIME_FIRST.match(t)
    if first:
        rest = t[first.end():]
        # "去年我们公司被收购了": the time goes after whose company ("我们公司去年被收购了").
        owned = re.match(rf"的?{_ZH_GROUP_NOUN}", rest) if first.group(2) != "我" else None
        head = first.group(2) + (owned.group(0) if owned else "")
        t = head + first.group(1) + rest[owned.end() if owned else 0:]
    t = re.sub(r"^([\u4e00-\u9fffA-Za-z]{1,6}?)(?:我们|咱们)(?=在|都|用|走|是)", r"我们的\1", t)  # "需求我们在飞书文档里管"
    # "武林外传我也看过": what was watched, said first, goes after the verb.
    t = re.sub(r"^([\u4e00-\u9fffA-Za-z]{2,8}?)我((?:也|都|还)?(?:看|听|玩|去|读|吃|用)过)(一些|几次|一点|几集)?$", r"我\2\3\1", t)
    said_group = re.search(r"我们|咱们|我司", t) is not None
    if said_group:
        t = _ZH_GROUP_WORK.sub("用户的", t)
        # "我们是一家德资汽车零部件公司": what the user's company is.
        t = re.sub(r"^(?:我们|咱们|我司)(?=是(?:[^，。个]{1,8}?的)?(?:一家|个|一个)[^，。]{0,12}(?:公司|工作室|店|厂|诊所|机构))", "用户的公司", t)
        t = re.sub(r"^(?:我们|咱们|我司)(?!家)", "用户团队" if subject.group and _zh_work(t) else "", t) if not t.startswith("用户") else t
    # "这周六要带我妈去复查": 我 after 带/给/跟 … is whose mother, not who takes her.
    me = re.search(r"我(?!们)", t)
    said_self = me is not None and not (me.start() > 0 and t[me.start() - 1] in _ZH_SELF_AFTER.replace("让", ""))
    # "我那么爱吃的一个人": a description without its verb -> "用户是那么爱吃的一个人".
    # "我那么爱吃的一个人" -> "用户很爱吃": the liking, said as what kind of person.
    t = re.sub(r"^我(?:是)?(?:这么|那么)((?:爱|喜欢)[\u4e00-\u9fff]{1,4}?)的(?:一个)?人[啊呀吧嘛]*$", r"我很\1", t)
    t = re.sub(r"^我(?=(?:这么|那么|这样|那样)?[^是]{1,10}的(?:一个)?人[啊呀吧嘛]*$)", "我是", t)
    # "本人东北人": where the user is from, said without 是.
    t = re.sub(r"^(?:本人|我)(?=(?:东北|西北|南方|北方|广东|四川|湖南|湖北|河南|河北|山东|山西|江苏|浙江|福建|江西|安徽|云南|贵州|广西|陕西|甘肃|新疆|内蒙|上海|北京|天津|重庆|台湾|香港)人)", "我是", t)
    # "幼师，一个娃": a job said bare, inherited from no one but the user.
    t = re.sub(rf"^我?(?={_ZH_BARE_JOB}(?:[，,]|$))", "我是", t) if subject.kind == USER and not subject.group else t
    # "我左撇子": what the user is, said without 是.
    t = re.sub(r"^我(?=(?:个|一个)?(?:懒汉|懒人|吃货|宅男|宅女|夜猫子|左撇子|素食者|工作狂|路痴|社恐|颜控|急性子|慢性子|完美主义者|话痨)(?:[，,。]|$))", "我是", t)
    t = _zh_outside(t)
    # The user is named where they were (我 -> 用户), or in front when the clause left them
    # out; never both ("很多人都比我厉害" is not "用户很多人都比用户厉害").
    bidden = _ZH_BIDDEN.match(t)
    if bidden and not said_self:
        return bidden.group(0) + "用户" + t[bidden.end():]  # "医生让少吃海鲜" -> "医生让用户少吃海鲜"
    if not t.startswith("用户") and not said_self and not _ZH_OTHER_START.match(t):
        # "公司代码合并要两个人review", "缓存从Memcached换成Redis了": the user's company, the user's cache.
        t = ("用户的" if re.match(rf"{_ZH_GROUP_NOUN}|缓存|数据库|消息队列|队列|技术栈|前端|后端|服务", t)
             and not re.match(r"[订去住找换买开到回]", t) else "用户") + t
    if t.startswith("用户"):
        # "我给我的小狗起名叫贝贝" -> "用户给自己的小狗起名叫贝贝", not "用户给用户的小狗".
        # ("让我年底前减二十斤" keeps 用户: after 让 a bare 我 is whom it acts on, not an owner.)
        # ("对我没用" is "对自己没用": a bare 我 before anything but kin is no owner.)
        t = "用户" + re.sub(rf"(?<=[{_ZH_SELF_AFTER}])(?:用户的|(?<!让)用户(?!{_ZH_NOT_OWNED}))(?=[\u3400-\u9fff])", "自己的", t[2:])
        t = t[:2] + re.sub(rf"(?<=[{_ZH_SELF_AFTER}])(?<!让)用户(?=[\u3400-\u9fff])", "自己", t[2:])
    return t


def _zh_work(t: str) -> bool:
    return re.search(r"公司|团队|组|部门|项目|后端|前端|服务|系统|产品|代码|上线|发版|迭代|部署|开会|周会|客户|技术|数据库|用|规定|要求", t) is not None


def _zh_display(subject: Subject) -> str:
    if subject.kind in (THING, EVENT) and subject.display:
        return subject.display
    if not subject.relation:
        return subject.name  # "朵朵对鸡蛋过敏": someone the conversation named but never placed
    return "用户的" + subject.relation + subject.name


# -- the memory's text -------------------------------------------------------------------


def normalize(text: str, lang: str, subject: Subject, phrase_end: int = 0, inherited: bool = False,
              standing_request: bool = False) -> str:
    if standing_request:
        return polish(standing(text, lang), lang)
    if lang == "zh":
        return polish(chinese(text, subject, phrase_end, inherited), lang)
    return polish(english(text, subject, phrase_end, inherited), lang)


# Emoji and the characters that join or dress them.
EMOJI_CHARS = "\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D"
_EMOJI = re.compile(f"[{EMOJI_CHARS}]+")
# The user's family, partner, landlord or pets, as a chat names them without "my" ("mum was
# diagnosed", "cat's name is Mochi") or capitalised at a sentence's start ("Dad's name is Tom").
KIN_AND_PETS = ("son daughter wife husband partner mom mum mama papa dad brother sister grandma grandpa gran granny nan nana "
                "hubby stepson stepdaughter fiance fiancee fiancé fiancée boyfriend girlfriend landlord roommate flatmate "
                "kiddo cat dog puppy kitten hamster rabbit bunny parrot horse").split()
# Labels a note opens with: "allergies: penicillin", "diet: no pork", "pets: 2 rabbits".
NOTE_LABELS = ("diet", "pets", "pet", "allergies", "allergy", "kids", "children", "hobbies", "meds", "medications")
_CAPITAL_KIN = re.compile(rf"\bUser's ((?:Mother|Father|Sister|Brother)[- ]in[- ]law|{'|'.join(w.capitalize() for w in KIN_AND_PETS)})\b")

# Chat words that carry no fact: "(barista in portland lol)", "in metric btw".
_EN_CHAT = re.compile(r",?\s*\b(?:lol|lmao|rofl|haha+|hehe|btw|tbh|fyi|smh|omg|ngl|imo|tho)\b(?=[\s,.)!?]|$)", re.I)
# What follows the fact as its consequence for this chat: "..., which is why i'm up".
_EN_AFTERMATH = re.compile(r",?\s+which is why\b.*$|,\s+(?:i )?(?:need|want) (?:some )?help with (?:a|an|the|my|our|this)\b.*$|,?\s+so (?:time|money|consistency|sleep|life|things|weekends|mornings|evenings) "
                           r"(?:is|are|'s|gets|has been)\b.*$"
                           # "... so that might double", "... so expect dumb questions", "... so ideally gluten free too"
                           r"|,?\s+so (?:that|it|this) (?:might|will|could|would|may)\b.*$|,?\s+so (?:expect|ideally|keeping|bear with)\b.*$"
                           # "... so it's on me", "..., does that count for anything": what it means for this chat
                           r"|,?\s+so (?:it'?s|its|that'?s|thats) (?:on|up to) (?:me|the user)\b.*$"
                           # "... so its my sanity thing", "... so time zone is the same, yay": what it means to the user
                           r"|,?\s+so (?:it'?s|its|that'?s|thats) (?:kind of |kinda |sort of )?(?:my|our|their|the user's) [\w-]+(?: [\w-]+)? thing\b.*$"
                           r"|,?\s+so (?:the )?time ?zones? (?:is|are|'s)\b.*$"
                           r"|,\s+(?:does|do|is|would|will|should|can|could) (?:that|this|it) (?:count|work|help|matter|make sense|sound|seem)\b.*$"
                           # "... connection with the crowd, the feeling's indescribable": how it feels, said after
                           r"|,\s+(?:the feeling|it|that)(?:'s| is) (?:(?:just|so|truly|really) )?(?:indescribable|unreal|surreal|the best|amazing|incredible|awesome)\W*$"
                           # "..., it looks so cozy", "..., they bring so much joy", "...- it was so exciting": a feeling said after
                           r"|(?:,|-)\s*(?:it|they|that)(?:'s| is| was| looks| looked| feels| felt)? (?:so|such) (?:\w+)\W*$"
                           r"|,\s+(?:it|they|that) (?:brings?|gives?|brought|gave) (?:me|us|the user|them)? ?(?:so much|such) (?:joy|happiness|peace|comfort)\W*$"
                           r"|,\s+(?:the )?best (?:day|night|week|year|decision|thing) ever\W*$"
                           # "I still have cats, Luna is sitting on the left": the photo shared, described
                           r"|,\s+[A-Z][a-z]+ (?:is|'s) (?:sitting|standing|lying|sleeping|curled up) (?:on the (?:left|right)|in the (?:middle|back|front|photo|pic|picture))\W*$", re.I)


_EMPHATIC_DO = re.compile(r"^((?:User|[A-Z][a-z]+)(?:'s(?: [\w-]+){1,3}?)? )(does|did|do) (?!not\b)([a-z]+)\b")


def _plain_verb(do: str, verb: str, after: str = "") -> str:
    """ "does sketch" -> "sketches", "did take" -> "took"; not a verb after "do" ("does yoga") as said."""
    from lemminflect import getAllLemmas, getInflection

    lemmas = getAllLemmas(verb)
    if verb not in (lemmas.get("VERB") or ()) or ("ADV" in lemmas or "ADJ" in lemmas) and verb not in ("like", "love", "miss", "want", "need") \
            or verb in ("yoga", "pilates", "crossfit", "karate", "judo", "ballet"):
        return f"{do} {verb}"
    if "NOUN" in lemmas and not re.match(r"\s*(?:$|[A-Z]|(?:the|a|an|my|his|her|their|our|it|them|him|me|some|every|occasionally|"
                                         r"sometimes|often|regularly|daily|weekly|now|too|again|a lot)\b)", after):
        return f"{do} {verb}"  # "does school drop offs": a noun after "do", as said
    if do == "do":
        return verb  # "User's pups do enjoy the garden"
    inflected = getInflection(verb, "VBZ" if do == "does" else "VBD")
    return inflected[0] if inflected else f"{do} {verb}"


def polish(out: str, lang: str) -> str:
    """What no memory keeps, whatever it says: emoji, chat words, a bracket left open, thanks."""
    body = without_time(out)
    rest = out[len(body):]
    body = _EMOJI.sub(" ", body)
    if lang == "zh":
        body = re.sub(r"叫[，,]\s*", "叫", body)  # "孩子叫，小满"
        # "用户也很喜欢小狗", "用户可是个壮年男子", "用户的狗狗巴爷也很喜欢洗澡": a word that answers
        # the other speaker ("too", "but", "indeed"), no part of the fact.
        body = re.sub(r"^(用户(?:的[\u4e00-\u9fffA-Za-z]{1,8}?)?)(?:也|的确|确实|倒是|其实|可(?=是))(?=[\u4e00-\u9fff])", r"\1", body)
        body = re.sub(r"[，,\s]*(?:谢了|谢谢你?|多谢|谢啦|感谢)[!！~～。]*$", "", body)
        # "……，的确很淘气", "都三年级了，不小了", "是懒汉，攒点衣服很正常": the answer's "indeed", a
        # retort, a shrug; not part of the fact.
        body = re.sub(r"(?<=[，,])(?:的确|确实)(?=[\u4e00-\u9fff])", "", body)
        body = re.sub(r"[，,\s]+(?:[^，,\s]{1,8}(?:很|挺|也|多)正常|不小了|不算小了|还小呢)[了啊呀吧啦嘛]*$", "", body)
        body = re.sub(r"^(用户(?:的[\u4e00-\u9fff]{1,4}?)?)(?:都|已经)((?:[一二三四五六]年级|初[一二三]|高[一二三]|大[一二三四]))了$", r"\1上\2", body)
        body = re.sub(r"[，,\s]+[^，,\s]{1,10}还是[^，,\s]{1,10}(?:好|行|合适|划算)[啊呀呢吗]*$", "", body)  # "……，全包还是半包好": the question asked
        # "用户在深圳做外包的，甲方催得要死": how it feels today, not the fact.
        body = re.sub(r"[，,\s]+[^，,\s]{1,8}(?:得要死|死了|要疯了|崩溃了|头都大了|累瘫了)[了啊呀吧]*$", "", body)
        body = re.sub(r"^用户家(?=[^，。是的]{1,4}是(?:只|一只|条|一条))", "用户家的", body)  # "我们家豆豆是只老泰迪"
        body = re.sub(r"^用户(?!是)(?=[\u4e00-\u9fffA-Za-z]{1,6}(?:死忠粉|铁粉|忠实粉丝))", "用户是", body)  # "湖人死忠粉"
        body = re.sub(r"(?:^|(?<=是))用户的(爸|妈|哥|姐|弟|妹)(?![爸妈哥姐弟妹])", r"用户的\1\1", body)  # "我爸明年退休": 用户的爸爸
        body = re.sub(r"^用户希望(?:跟|和|给)(?=讲|说|写|解释|回答|回复|翻译|推荐)", "用户希望", body)  # "跟我讲……的时候请用大白话"
        body = re.sub(r"^(用户[^，。用]{0,6}?都是)用户(?=[\u4e00-\u9fff])", r"\1自己", body)  # "我平时都是我送孩子去幼儿园"
        # "两个女儿一个国二一个小四": 用户有两个女儿，一个……
        body = re.sub(r"^用户(?:有)?((?:两|三|四|俩|仨)个(?:女儿|儿子|孩子|闺女|娃|小孩))(?=[\u4e00-\u9fff])(?!都)", r"用户有\1，", body)
        body = re.sub(r"^用户((?:两|三|四|俩|仨)个(?:女儿|儿子|孩子|闺女|娃|小孩))$", r"用户有\1", body)  # "两个娃"
        # "你有几个孩子？" "两个": 用户有两个孩子 (not "用户的孩子两个孩子").
        body = re.sub(r"^用户的(?:孩子|女儿|儿子|娃|小孩|闺女)((?:一|两|三|四|俩|仨)个(?:孩子|女儿|儿子|娃|小孩|闺女))$", r"用户有\1", body)
        body = re.sub(r"^用户((?:两|三|四|俩|仨)个(?:女儿|儿子|孩子|闺女|娃|小孩))(?=都)", r"用户的\1", body)  # "两个孩子都上小学了"
        # "准备把订单库从mysql迁到tidb 有啥坑", "少喝啤酒少吃海鮮，那咖啡可以喝嗎", "……主要写c++和ros2 有个问题 ……":
        # the question asked after the fact.
        body = re.sub(r"[，,\s]+(?:有啥坑|有什么坑|怎么搞|怎么弄|怎么办|咋办|咋整|咋弄|咋搞|有啥建议|有什么建议)[啊呀呢吗嗎？?]*$", "", body)
        body = re.sub(r"[，,\s]+那?[^，,\s]{1,8}(?:可以|能|可不可以|能不能)[^，,\s]{0,3}[吗嗎][？?]*$", "", body)
        body = re.sub(r"[，,\s]+有个问题[，,：:\s].*$", "", body)
        body = re.sub(r"\s{2,}", " ", body).strip(" ，,")
    else:
        body = _EN_CHAT.sub("", body)
        body = re.sub(r"^User name(?:'s| is) ", "User's name is ", body)  # "name's Marcus btw"
        body = re.sub(r"^(User's(?: [a-z]+(?:'s)?)? )name's (?=[A-Z])", r"\1name is ", body)  # "my name's Marcus", "my dog's name's Rex"
        # "allergies: penicillin, shellfish", "dog = Pepper", "diet: no pork": a note's label and its value.
        body = re.sub(rf"^User (?=(?:{'|'.join(NOTE_LABELS)})\s*[:=]\s+\w)", "User's ", body)
        body = re.sub(r"^User's ((?:[\w-]+ ){0,3}(?:appt|appointment)) (?=(?:at|with|on|for|in)\b(?!.*\b(?:is|was|are|were|been|got|moved|changed|cancelled|canceled)\b))", r"User has a \1 ", body)  # "passport renewal appt at ..."
        body = re.sub(r"^(User's [a-z][\w-]{1,20})\s*[:=]\s+(?=\w)",
                      lambda m: m.group(1) + (" are " if _plural_noun(m.group(1).split()[-1]) else " is "), body)
        body = _CAPITAL_KIN.sub(lambda m: "User's " + m.group(1).lower(), body)  # "Dad's name is Tom" typed at a sentence's start
        # "User also joined a chess club", "User is actually going to Tokyo": words that answer
        # the other speaker, no part of the fact; "User does sketch occasionally" says "sketches".
        body = re.sub(r"\s*\bactually\b(?=[,.\s]|$)", "", body, flags=re.I)
        body = re.sub(r"\bhere (?=in [A-Z])", "", body)  # "a rock concert here in Boston": where the speaker is, named
        body = re.sub(r",?\s+personally$", "", body)  # "User will always love reading, personally"
        body = re.sub(r"(?<!\ba )\bfew (?=(?:days|weeks|months|years) ago\b)", "a few ", body)  # "painting classes few days ago"
        body = re.sub(r"^((?:User|[A-Z][a-z]+)(?:'s(?: [\w-]+){1,3}?| and (?:their|others)(?: [\w-]+){0,2}?)?(?: (?:is|was|has|had|are|were))?) also ", r"\1 ", body)
        body = _EMPHATIC_DO.sub(lambda m: m.group(1) + _plain_verb(m.group(2), m.group(3), m.string[m.end():]), body)
        after = _EN_AFTERMATH.search(body)
        if after and re.search(r"\buser\b", body[:after.start()], re.I):
            body = body[:after.start()]  # (what is left still says whose fact it is)
        if body.count("(") > body.count(")"):
            body = body[:body.rfind("(")]  # "User is a pharmacist in Leeds (community": the aside cut off
        body = re.sub(r"\(\s*\)", "", body)
        body = re.sub(r"\s+([,.)])", r"\1", re.sub(r"\s{2,}", " ", body)).strip(" ,;:-")
    return body + rest


_EN_REPLY_WORDS = r"(?:answers?|repl(?:y|ies)|responses?|explanations?|messages?|summar(?:y|ies)|examples?|emails?|code)"


def _assistant_en(rule: str) -> str:
    """ "you" in a rule the user sets is the assistant."""
    rule = re.sub(r"\b(?:you're|youre|you are|u r)\b", "the assistant is", rule, flags=re.I)
    rule = re.sub(r"\b(?:you've|youve|u've)\b", "the assistant has", rule, flags=re.I)  # (not "the assistant've")
    rule = re.sub(r"\b(?:you|u)\b", "the assistant", re.sub(r"\b(?:your|ur)\b", "the assistant's", rule, flags=re.I), flags=re.I)
    # "when the assistant searches"
    return re.sub(r"(?<=\bthe assistant )([a-z]+)\b", lambda m: _third_person(m.group(1)) if m.group(1) in _ASSISTANT_DOES else m.group(1), rule)


def standing(text: str, lang: str) -> str:
    """A rule the user sets for the assistant: "Keep replies brief" -> "User prefers brief replies"."""
    body = re.sub(r"[.!。！~～]+$", "", text.strip())
    body = re.sub(r",\s*always$", "", body, flags=re.I)  # "..., always": the rule says it is one
    # "british spelling please, you've put 'program'": what the last answer got wrong, not the rule.
    body = re.sub(r",?\s+(?:you've|youve|u've|you have|you|u) (?:put|written|wrote|used|spelled|spelt|said|typed)\b.*$", "", body, flags=re.I)
    if lang == "zh":
        body = re.sub(r"^(?:你)?(?:说话|讲话)", "回答", body)  # "说话简单点": how the assistant answers
        # "你给的东西最好直接是latex代码": what the assistant gives, said as 助手.
        body = re.sub(r"(?:^|(?<=以后|今后))(?:请|麻烦)?(?:你|您)(?=给的|写的|发的|回的|做的|出的|列的|推荐的)", "助手", body)
        body = re.sub(r"^(?:请|麻烦)?(?:你)?", "", body)
        body = re.sub(r"^(从现在起|从现在开始|以后|今后)[，,]?(?:请|麻烦)?(?:你)?", r"\1", body)
        body = re.sub(r"(?:给|帮)我(?=用|写|讲|举例|加|标|配|列|带|推荐)", "", body)  # "讲代码的时候给我用Go写"
        body = re.sub(r"(?<=推荐)([^，。]{1,10}?)(?:啥的|之类的|什么的)$", r"\1", body)  # "别给我推荐基金股票啥的"
        body = re.sub(r"(?<=[\u4e00-\u9fff])请(?=用|别|不要|都|多|少)", "", body)  # "代码示例请用typescript"
        # "回复里别加那么多emoji 看着乱": the rule, not how its breach feels.
        body = re.sub(r"[\s，,]+(?:看着|看起来|感觉|觉得|真的|实在)?(?:太|很|好|挺)?(?:乱|烦|累|难受|不舒服|啰嗦|麻烦|头疼)[了啊呀的]*$", "", body)
        body = re.sub(r"(?:(?<=别)|(?<=不要))给我回(?=那么|这么|太|得)", "回复", body)  # "以后别给我回那么长"
        body = re.sub(r"(回答|回复|答复|告诉|跟|给|对)我(?!们)(?=[^\s的])", r"\1", body)  # "以后回答我都用繁体字"
        body = re.sub(r"回我(?=$|[，,\s])", "回复", body)  # "以后都用中文回我"
        body = re.sub(r"(?:(?<=别)|(?<=不要))给我(?!们)(?=[\u4e00-\u9fffA-Za-z])", "给", body)  # "用公制单位 别给我英制的"
        body = re.sub(r"(?<=[\u4e00-\u9fff])(?:就行|就好|就可以)(?=[，,]|$)", "", body)  # "直接给干货就行"
        # "以后英文单词你都帮我标一下音标": the assistant, not a "你" the memory's reader is not.
        body = re.sub(r"(?:你|您)(?=都|就|也|再|一律|统一|每次|尽量)", "", body)
        body = re.sub(r"你们|您|你(?!们)", "助手", body)  # "你给的东西最好直接是latex代码"
        return "用户希望" + _zh_outside(body)
    body = re.sub(r"^(?:can|could|would|will) (?:you|u) (?:please |pls )?(?=\w)", "", body.rstrip("?"), flags=re.I)  # asked politely
    low = body.lower()
    low = re.sub(r"^(?:please|pls|plz|kindly)\s+|,?\s+(?:please|pls|plz|thanks|thank you)$", "", low)
    low = re.sub(rf"^{_FROM_NOW_ON}[, ]+|,?\s+(?:{_FROM_NOW_ON}|for all (?:future )?\w+)$", "", low)
    m = re.match(rf"^(?:always\s+)?keep (?:your |the |all )?(?P<what>{_EN_REPLY_WORDS})\s+(?P<how>[\w -]+)$", low)
    if m and re.search(r"(?:^|\s)(?:under|within|below|at most|less than|fewer than|no more than|in|to|with|without)\b", m.group("how")):
        return f"User prefers {m.group('what')} {m.group('how')}"  # "keep answers under 100 words"
    both = re.match(r"^(?P<how>[\w -]+?) and (?:skip|avoid|drop|leave out|cut|no(?! longer| more)|don't use|do not use|don't add|without) "
                    r"(?:the |any |all )?(?P<not>[\w -]+)$", m.group("how")) if m else None
    if both:
        # "keep your answers short and skip the bullet points unless I ask for them": two rules of one answer.
        return f"User prefers {both.group('how')} {m.group('what')} without {_pronouns_en(both.group('not'))}"
    cond = re.match(r"^(?P<how>[\w -]+?)(?<!\band)(?<!\bor)(?<!\bbut)\s+(?P<when>(?:when|whenever|if|unless|while|after|before)\s.+)$",
                    m.group("how")) if m else None
    if cond:
        # "keep answers short when i message after shifts": the answers, then when.
        return f"User prefers {cond.group('how')} {m.group('what')} {_pronouns_en(cond.group('when'), about_other=True)}"
    if m:
        return f"User prefers {m.group('how')} {m.group('what')}"
    body = re.sub(r"^(?:please|pls|plz|kindly)\s+|,?\s+(?:please|pls|plz)$", "", body, flags=re.I)
    body = re.sub(r"\s+(?:pls|plz)(?=[,;])", "", body, flags=re.I)  # "use australian spelling pls, ..."
    rule = re.sub(rf"^{_FROM_NOW_ON}[, ]+(?:(?:please|pls|plz|kindly)\s+)?", "", body, flags=re.I)
    # "..., it bugs me", "..., i find them distracting": why, not the rule.
    rule = re.sub(r",?\s+(?:(?:it|they|that|those) (?:really )?(?:bugs?|annoys?|distracts?|irritates?|drives?) (?:me|us)\b|i find (?:it|them|those) \w+"
                  r"|[^,]{0,30}\bmade (?:me|us) (?:twitch|cringe|wince|shudder|sad|mad|angry)\b"
                  r"|(?:the )?last [\w ]{0,24}?(?:i|we) (?:used|looked at|tried|had|asked)\b"
                  r"|(?:it's|its|that's|thats) (?:so |really |kinda |a bit )?(?:weird|annoying|awkward|cringe|distracting|too much)\b)[^,]*", "", rule, flags=re.I)
    no = re.match(r"^(?:don't|do not|dont|never|stop|no more|quit) (?:using |adding |putting |including |use |add |put |include )?(?P<many>any |so many |too many |all the )?"
                  r"(?P<what>[\w -]+?) (?:in|to) (?:your|ur|the) (?P<where>repl(?:y|ies)|answers?|responses?|messages?)\b", rule, re.I)
    if no:
        few = "few" if (no.group("many") or "").strip() in ("so many", "too many") else "no"  # ("not too many" is not none)
        return f"User prefers {few} {no.group('what').lower()} in {no.group('where').lower()}"  # "don't use emojis in your replies"
    when = re.match(r"^when(?:ever)? (?:you|u) (?:write|give|send|show|suggest) (?:me )?(?P<what>code|examples|snippets|scripts|recipes|answers|"
                    r"summaries|explanations|directions|workouts|plans|itineraries|lists)(?: for (?:me|us))?,? (?P<rule>.+?)(?:,? always)?$", rule, re.I)
    if when:
        # "when you write code for me use typescript", "when u give me recipes just list ingredients + steps"
        where = f"{'in' if when.group('what').lower() in ('code', 'examples', 'snippets', 'scripts') else 'for'} {when.group('what').lower()}"
        if when.group("rule").count(",") >= 2:
            # "when u give me code, go only, no python, and skip the explanations": a list, so where first.
            return f"User prefers, {where}: {_pronouns_en(_assistant_en(when.group('rule')), about_other=True)}"
        rule = f"{when.group('rule')} {where}"
    framed = re.match(r"^(?P<where>for (?:any|all|every) [^,]{2,40}?),? (?P<own>i (?:(?:really|always|generally) )?(?:prefer|like|want|need)\s+.+)$", rule, re.I)
    if framed:
        where = re.sub(r"\b(write|make|draft|build) me\b", r"\1 for me", framed.group("where"), flags=re.I)
        rule = f"{framed.group('own')} {where}"  # "for any scripts u write me i prefer python": the user's own words, then where
    rule = _assistant_en(rule)
    imperative = re.match(r"^(?:(?:always|only) )?(?:use|give (?:me|us)|send (?:me|us)|show (?:me|us)|stick to|go with"
                          # "give amounts in grams": the units of every answer
                          r"|give(?= (?:all )?(?:the )?(?:amounts|measurements|quantities|weights|temperatures|prices|distances|units|times) in\b))\s+(?=\S)", rule, re.I)
    if imperative:
        # "use UK spelling always", "always give me quantities in metric": what the user prefers.
        what = re.sub(r",?\s+(?:always|every time|all the time)$", "", rule[imperative.end():], flags=re.I)  # a rule is always
        only = "only " if re.match(r"only\b", rule, re.I) else ""
        if not _SECOND_ORDER.search(what):
            return f"User prefers {only}{_pronouns_en(what, about_other=True)}"
        # ("use British spelling and don't make up references": two orders, worded as given.)
    if not re.match(r"^i\b", rule, re.I):
        return f"User prefers: {_pronouns_en(_lower_first(rule), about_other=True)}"
    own = re.match(r"^i (?:(?:really|always|generally) )?(?P<verb>prefer|like|want|need)\s+(?P<what>.+)$", rule, re.I)
    if own:
        # "I prefer concise answers with the code first": the user's own words, not a rule quoted.
        verb = {"prefer": "prefers", "like": "likes", "want": "wants", "need": "needs"}[own.group("verb").lower()]
        return f"User {verb} {_pronouns_en(own.group('what'))}"
    return f"User prefers: {_pronouns_en(_lower_first(rule))}"


# A second order after the first ("use British spelling and don't make up references").
_SECOND_ORDER = re.compile(r"(?:\band|\bbut|,)\s+(?:don't|do not|dont|never|always|keep|make|give|add|avoid|skip|stop|cite|check|include|explain)\b", re.I)


def _lower_first(text: str) -> str:
    """The first letter in lower case, as inside a sentence, unless the word is an acronym ("NZ spelling")."""
    return text if re.match(r"[A-Z]{2,}\b", text) else text[:1].lower() + text[1:]


# What a user asks the assistant to do, in "when the assistant writes", "drafts the assistant does".
_ASSISTANT_DOES = frozenset((
    "search", "look", "book", "write", "give", "make", "plan", "pick", "send", "show", "suggest", "use", "answer", "reply",
    "explain", "summarise", "summarize", "recommend", "do", "draft", "help", "create", "translate", "format", "edit", "check",
    "add", "list", "include", "mention", "prepare", "produce", "generate", "review", "rewrite", "proofread", "correct", "have", "need", "know", "think", "get"))


def pronouns(text: str, lang: str, about_other: bool = False) -> str:
    """Only the pronouns to third person: for text appended to a memory as its elaboration."""
    if lang == "zh":
        # "…，跟我表哥合伙" after "用户在长沙": the user is already named, so 自己的.
        text = re.sub(rf"(?<=[{_ZH_SELF_AFTER}])(?:我的|(?<!让)我(?!{_ZH_NOT_OWNED}))(?=[\u3400-\u9fff])(?!们)", "自己的", text)
        return _zh_outside(re.sub(rf"(?<=[{_ZH_SELF_AFTER}])(?<!让)我(?=[\u3400-\u9fff])(?!们)", "自己", text))
    return _pronouns_en(text, about_other=about_other)


def with_time(content: str, lang: str, label: str, deadline: bool = False) -> str:
    if lang == "zh":
        return f"{content}（{'截止 ' if deadline else ''}{label}）"
    return f"{content} ({'by ' if deadline else ''}{label})"


def without_time(content: str) -> str:
    """A memory's text without the time `with_time` wrote after it."""
    return re.sub(r"\s*[(（][^()（）]*[)）]$", "", content)


def negated(content: str, lang: str) -> str:
    """'User drinks coffee' -> 'User no longer drinks coffee'; '用户喝咖啡' -> '用户不再喝咖啡'."""
    if lang == "zh":
        body = content[2:] if content.startswith("用户") else content
        return "用户不再" + body
    body = content[5:] if content.startswith("User ") else content
    if re.match(r"^(?:is|was)\b", body):
        return "User is no longer" + body[body.index(" "):] if " " in body else "User is no longer " + body
    return "User no longer " + body
