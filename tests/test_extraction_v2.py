"""Extraction v2: every example of what the first extractor got wrong, in both languages
where it applies. Memories are read as a user reads them: kept or not, the words, the
type, whom they are about, and whether an update closes the old value."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from conftest import write_json
from memctl.conversations import Conversation, Turn, clean
from memctl.extract import Candidate, extract, load_rules

RULES = load_rules()
WHEN = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)


def said(*turns: tuple[str, str] | str, when: datetime = WHEN) -> list[Candidate]:
    """What one conversation gives: turns are (role, text), or user text."""
    pairs = [t if isinstance(t, tuple) else ("user", t) for t in turns]
    conv = Conversation("u", "s", when, [Turn(f"t{i}", role, text) for i, (role, text) in enumerate(pairs, 1)])
    return [i for i in extract(conv, clean(conv), rules=RULES).items if isinstance(i, Candidate)]


def contents(*turns: tuple[str, str] | str) -> list[str]:
    return [c.content for c in said(*turns)]


def ingest(store, tmp_path, user: str, *sessions: tuple[str, list[tuple[str, str] | str]]) -> None:
    """Sessions (time, turns), ingested one call each, in order."""
    for n, (when, turns) in enumerate(sessions):
        messages = []
        for i, t in enumerate(turns):
            role, text = t if isinstance(t, tuple) else ("user", t)
            messages.append({"role": role, "content": text, "id": f"t{i}"})
        write_json(tmp_path / f"{user}-{n}.json", {"user": user, "session": f"{user}-{n}", "time": when, "messages": messages})
        store.ingest([str(tmp_path / f"{user}-{n}.json")])


def active(store, user: str) -> list[str]:
    return sorted(m.content for m in store.memories(user))


# -- noise -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "I hope you find the perfect dog-friendly spot soon!",
    "Let them get ready, gonna head out soon.",
    "那你喜欢去哪里玩",
    "Wow, that sounds amazing! I'm so happy for you.",
    "I'd love to see another painting of yours sometime!",
    "Thanks so much, your support means a lot to me.",
    "哈哈，你说得对，我也这么觉得",
    "I shared a photo of a sunset over the lake.",
    "Even if it's not always easy.",
    "You should try learning Rust, it's really worth it.",
    "I'm going to get coffee.",
    "I almost forgot my keys this morning.",
    "My coworker was late again today.",
    "你们喜欢我才有继续下去的动力",
    "哇这也太厉害了吧",
    "Enjoy the gaming!",
    "I'm heading there next month.",
    "I'm learning this instrument, which has been quite the journey.",
    "但是这类的我比较喜欢和人面对面玩",
    "我每周都得去",
])
def test_reactions_remarks_and_passing_moments_are_not_memories(text):
    assert contents(text) == []


# -- words -------------------------------------------------------------------------------


def test_verbs_are_inflected_by_grammar_and_titles_left_alone():
    assert contents("I'm prepping for the CFA Level I exam next spring.")[0].startswith(
        "User is prepping for the CFA Level I exam")
    assert contents("I usually go swimming before work.") == ["User usually goes swimming before work"]
    assert contents("I teach piano to kids on weekends.") == ["User teaches piano to kids on weekends"]
    assert contents("我最喜欢的歌是《月亮代表我的心》") == ["用户最喜欢的歌是《月亮代表我的心》"]
    assert contents('My favorite quote is "I think, therefore I am".') == ['User\'s favorite quote is "I think, therefore I am"']
    assert contents("the conference I'm going to, PyCon US, is in Pittsburgh")[0].endswith("PyCon US, is in Pittsburgh")


def test_possessives_backticks_coordinated_verbs_and_time_clauses():
    assert contents("my sister's wedding is August 9 in Cork")[0].startswith("User's sister's wedding is August 9")
    assert contents("I`m allergic to peanuts and shellfish")[0].startswith("User is allergic")
    assert contents("I usually bring a book and just chill")[0] == "User usually brings a book and just chills"
    assert contents("I love cats and dogs") == ["User loves cats and dogs"]
    assert contents("When I was 10, my parents gave me a console")[0].startswith("When the user was 10, their parents")
    assert contents("Been checking out some places in Lisbon, but no luck so far")[0].startswith("User has been checking")
    assert contents("Great idea, except I don't like dark beer") == ["User doesn't like dark beer"]


def test_a_message_without_a_subject_is_the_users_own_doing():
    assert contents("flying to Denver on the 22nd for my cousin's wedding")[0].startswith(
        "User is flying to Denver on the 22nd for their cousin's wedding")
    assert contents("want to get my AWS cert before end of year")[0].startswith("User wants to get their AWS cert")
    # Spaces stand for commas in chat typed without punctuation: the move is its own clause.
    assert contents("纠正一下 我不在上海了 上个月搬苏州了")[0].startswith("用户上个月搬苏州了")
    assert contents("我习惯晚上十一点以后写代码") == ["用户习惯晚上十一点以后写代码"]  # a habit, not an instruction


def test_a_clause_cut_at_and_keeps_its_fact():
    (fishing,) = said("Last weekend my girlfriend and I went fishing at the lake.")
    assert "fishing" in fishing.content and fishing.type == "event"
    assert fishing.content.startswith("User and their girlfriend went fishing")
    (zh,) = said("上周末我和女朋友去湖边钓鱼了")
    assert "钓鱼" in zh.content and zh.type == "event"


def test_it_and_there_are_resolved_or_dropped():
    assert contents("I love it there.") == []
    assert contents("这个我很喜欢") == []
    resolved = contents(("assistant", "Do you like sushi?"), "I love it!")
    assert resolved == ["User loves sushi"]
    zh = contents(("assistant", "你喜欢吃火锅吗？"), "特别喜欢")
    assert zh == ["用户特别喜欢吃火锅"]


# -- whom it is about ------------------------------------------------------------------------


def test_a_clause_without_a_subject_keeps_the_subject_before_it():
    found = said("我家狗狗特别爱玩水，也很喜欢洗澡")
    assert [c.content for c in found] == ["用户的狗狗特别爱玩水", "用户的狗狗很喜欢洗澡"]
    assert all(c.subject == "狗狗" for c in found)
    en = said("My dog Biscuit loves the water and hates baths.")
    assert en and all(c.subject == "dog Biscuit" for c in en) and en[0].content.startswith("User's dog Biscuit loves")


@pytest.mark.parametrize("text, subject, content", [
    ("My son Noah has soccer practice on Saturday mornings at 9.", "son Noah",
     "User's son Noah has soccer practice on Saturday mornings at 9"),
    ("My daughter has piano lessons every Tuesday.", "daughter", "User's daughter has piano lessons every Tuesday"),
    ("My wife works as a nurse at St Thomas'.", "wife", "User's wife works as a nurse at St Thomas'"),
    ("Our cat is called Mochi.", "cat", "User's cat is called Mochi"),
    ("我儿子乐乐对芒果过敏", "儿子乐乐", "用户的儿子乐乐对芒果过敏"),
    ("我女儿每周二上钢琴课", "女儿", "用户的女儿每周二上钢琴课"),
    ("我老公在华为做工程师", "老公", "用户的老公在华为做工程师"),
    ("我家猫叫年糕", "猫", "用户的猫叫年糕"),
    ("My sister is on a keto diet.", "sister", "User's sister is on a keto diet"),
])
def test_people_and_pets_in_the_users_life_are_remembered(text, subject, content):
    found = said(text)
    assert [(c.subject, c.content) for c in found] == [(subject, content)]


def test_the_phone_the_user_uses_and_an_event_they_attend():
    assert contents("I use a Pixel 8 as my daily phone.") == ["User uses a Pixel 8 as their daily phone"]
    assert contents("我用的是iPhone 15") == ["用户用的是iPhone 15"]
    forum = said("我下周要去参加一个AI论坛", "论坛的地点是北京")
    assert any("北京" in c.content and c.subject == "论坛" for c in forum)


def test_a_short_answer_is_paired_with_the_question():
    found = said(("assistant", "你的店什么时候开业？"), "已经差不多了，预计下周开业")
    assert [c.content for c in found] == ["用户的店预计下周开业（2026-12-07~2026-12-13）"]
    assert found[0].subject == "店" and found[0].type == "event"
    en = said(("assistant", "Any food allergies I should know about?"), "Just peanuts.")
    assert [c.content for c in en] == ["User is allergic to peanuts"]


def test_a_short_answer_about_someone_else_is_not_the_users():
    # The question asked about her: "penicillin" is not the user's allergy.
    assert said(("assistant", "I'll make the handover sheet. Does she have any allergies?"), "penicillin") == []
    assert said(("assistant", "好的。他对什么过敏吗？"), "青霉素") == []


def test_one_off_remarks_about_others_stay_out():
    assert contents("My friend said the movie was boring.") == []
    assert contents("我同事今天又迟到了") == []


def test_recall_weighs_the_sisters_diet_down_for_a_question_about_the_user(store, tmp_path):
    from memctl.ranking import subject_weight

    ingest(store, tmp_path, "d1", ("2026-11-01T10:00:00Z", ["My sister is on a keto diet.", "I'm vegetarian."]))
    (sister,) = [m for m in store.memories("d1") if m.subject == "sister"]
    (own,) = [m for m in store.memories("d1") if m.subject is None]
    cfg = store.core.config.recall
    assert subject_weight(sister, "what diet am I on", cfg) == cfg.other_subject_weight < 1
    assert subject_weight(sister, "what diet is my sister on", cfg) == 1.0
    assert subject_weight(own, "what diet am I on", cfg) == 1.0
    assert sister.public()["subject"] == "sister" and own.public()["subject"] == "user"


# -- what kind of fact -----------------------------------------------------------------------


def test_a_fact_said_with_a_request_is_kept():
    assert contents("I'm a night-shift nurse, so please schedule things for the afternoon.") == [
        "User is a night-shift nurse"]
    assert contents("我是夜班护士，帮我把会都安排在下午") == ["用户是夜班护士"]


@pytest.mark.parametrize("text, content", [
    ("Keep replies brief please.", "User prefers brief replies"),
    ("Please don't write long responses.", "User prefers: don't write long responses"),
    ("回复简短一点就行", "用户希望回复简短一点"),
])
def test_standing_instructions_are_preferences(text, content):
    found = said(text)
    assert [(c.type, c.content) for c in found] == [("preference", content)]


def test_goals_keep_deadlines_and_plans_are_dated_tasks():
    (goal,) = said("我的目标是今年年底前通过N2")
    assert goal.type == "goal" and goal.valid_to == datetime(2027, 1, 1, tzinfo=timezone.utc)
    (plan,) = said("I'm planning to visit Kyoto next week.")
    assert plan.type == "task" and plan.valid_to == datetime(2026, 12, 14, tzinfo=timezone.utc)
    assert "2026-12-07" in plan.content
    (went,) = said("I went to Lisbon last month.")
    assert went.type == "event" and "(2026-10)" in went.content


def test_a_durable_fact_is_not_a_low_importance_leftover():
    (dog,) = said("I have a golden retriever named Biscuit.")
    assert dog.type == "profile" and dog.importance >= 0.6
    assert dog.content == "User has a golden retriever named Biscuit"


# -- updates ---------------------------------------------------------------------------------


@pytest.mark.parametrize("old, new, gone, kept", [
    ("我住在上海", "我四月份已经搬到杭州了", "上海", "杭州"),
    ("I live in Shanghai.", "我搬到杭州了", "Shanghai", "杭州"),
    ("我们后端用Go，消息队列用的Kafka", "消息队列现在换成 Pulsar 了", "Kafka", "Pulsar"),
    ("My surgery is scheduled for August.", "I rescheduled it to November.", "August", "November"),
    ("我在字节做产品经理", "我跳槽了，现在在美团", "字节", "美团"),
    ("我住在上海", "纠正一下 我不在上海了 上个月搬苏州了", "上海", "苏州"),
    ("I'm vegetarian.", "I'm pescatarian now.", "vegetarian", "pescatarian"),
    ("我基本不吃辣", "微辣现在可以吃了", "不吃辣", "微辣"),
    ("I work at Google as a designer.", "I just started a new job at Figma.", "Google", "Figma"),
    # A plan moved to a new date, in Chinese: the new date is ahead, whatever 了 says.
    ("我十二月三号要去北京面试", "面试推迟到十二月十八号了", "12-03", "2026-12-18"),
])
def test_a_new_value_closes_the_old_one(store, tmp_path, old, new, gone, kept):
    ingest(store, tmp_path, "u1", ("2026-03-01T10:00:00Z", [old]), ("2026-11-01T10:00:00Z", [new]))
    now = active(store, "u1")
    assert any(kept in c for c in now), now
    assert not any(gone in c for c in now), now
    closed = [m for m in store.memories("u1", status="superseded") if gone in m.content]
    assert closed and all(m.valid_to is not None for m in closed)


@pytest.mark.parametrize("new, content", [
    ("correction its aug 21, hr just emailed, they moved it a week earlier", "User's mat leave starts aug 21 (2026-08-21)"),
    ("it got moved to the 21st", "User's mat leave starts the 21st (2026-08-21)"),  # (the plan's month)
    ("they moved it to aug 21", "User's mat leave starts aug 21 (2026-08-21)"),
])
def test_a_new_date_for_it_moves_the_plan_said_last(store, tmp_path, new, content):
    # A new date with no name ("it", "that") is the plan said last, in that plan's words.
    ingest(store, tmp_path, "u3", ("2026-07-20T10:00:00Z", ["my mat leave starts aug 28"]), ("2026-07-21T10:00:00Z", [new]))
    assert active(store, "u3") == [content]
    assert [m.content for m in store.memories("u3", status="superseded")] == ["User's mat leave starts aug 28 (2026-08-28)"]


def test_a_new_date_for_it_moves_the_plan_said_last_in_the_same_conversation(store, tmp_path):
    ingest(store, tmp_path, "u5", ("2026-07-20T10:00:00Z", ["I have a dentist appointment on aug 9", "and my flight to Lisbon is on aug 15",
                                                           "sorry it's aug 17 not 15, I misread the ticket"]))
    assert active(store, "u5") == ["User has a dentist appointment on aug 9 (2026-08-09)", "User's flight to Lisbon is on aug 17 (2026-08-17)"]


@pytest.mark.parametrize("new", [
    "my best friend is getting married! it's october 3rd",  # a new event's date
    "it's friday, I'm so proud of her",  # an answer about someone else's day
    "it's friday!! so ready for the weekend",  # today
    "that was on the 2nd of june",  # the past
    "that's the 3rd time this month",  # a count
    "it's the 12th or 13th, can't remember",  # unsure
])
def test_a_date_said_of_something_else_moves_no_plan(store, tmp_path, new):
    ingest(store, tmp_path, "u6", ("2026-07-20T10:00:00Z", ["I have a dentist appointment on aug 9"]), ("2026-07-21T10:00:00Z", [new]))
    assert "User has a dentist appointment on aug 9 (2026-08-09)" in active(store, "u6")


@pytest.mark.parametrize("old, new, content", [
    # The plan named by what moved, a dated event of someone in the user's life too.
    ("my daughter Esme's driving test is booked for may 22", "ah she just said the test got moved to the 29th bc of examiner strike or whatever",
     "User's daughter Esme's driving test is booked for the 29th (2026-05-29)"),
    ("I have a vet appt for the puppy on march 5", "update vet just called they moved us to friday the 6th",
     "User has a vet appt for the puppy on Friday the 6th (2026-03-06)"),
    ("我大学室友阿凯4月12号在厦门结婚", "刚接到阿凯电话，婚期改到4月19号了，酒店那边出了点问题", "用户大学室友阿凯4月19号在厦门结婚（2026-04-19）"),
    ("6月18号上午要去做甲状腺复查", "刚看了下预约短信，复查是6月20号不是18号，我记错了", "用户6月20号上午要去做甲状腺复查（2026-06-20）"),
    # A correction that says the day it is not: the plan on that day, whatever it is called.
    ("B超约在6月18号上午", "刚看了下预约短信，复查是6月20号不是18号，我记错了", "用户B超约在6月20号上午（2026-06-20）"),
    # A weekday alone is that weekday of the plan's week.
    ("儿子学校4月15号开家长会", "刚收到班级群通知，家长会改到周四晚上了", "用户的儿子学校4月16号开家长会（2026-04-16）"),
])
def test_a_new_date_moves_the_plan_it_names(store, tmp_path, old, new, content):
    ingest(store, tmp_path, "u7", ("2026-03-02T10:00:00Z", [old]), ("2026-03-03T10:00:00Z", [new]))
    now = active(store, "u7")
    assert content in now, now
    assert len(store.memories("u7", status="superseded")) == 1


@pytest.mark.parametrize("old, new", [
    ("my dentist appt is on march 10", "the meeting got moved to the 12th"),  # a plan the store does not have
    ("my exam is on march 14", "his exam got moved to the 21st"),  # someone else's
    ("my exam is on march 14", "nobody said the test got moved to the 29th"),
    ("my exam is on march 14", "he said the exam got moved to the 29th but i don't believe him"),
    ("my exam is on march 14", "the dog was moved to the 3rd kennel"),
    ("我3月20号要去看牙医", "搬家改到7月5号了"),
    ("我下周三有个数学考试", "考试没改到25号，还是原来那天"),
    ("我下周三有个数学考试", "说不定改到25号"),
    ("我下周三有个数学考试", "阿凯的婚期改到4月19号了"),
])
def test_a_new_date_of_something_else_moves_no_plan_of_the_users(store, tmp_path, old, new):
    ingest(store, tmp_path, "u9", ("2026-03-02T10:00:00Z", [old]), ("2026-03-03T10:00:00Z", [new]))
    assert store.memories("u9", status="superseded") == []


def test_a_weekday_alone_is_the_nearest_such_day_to_the_plans():
    from memctl.reconcile import _redated
    from memctl.extract import load_rules
    now = datetime(2026, 3, 3, tzinfo=timezone.utc)
    # A Saturday appointment moved to "monday": two days on, not five days back.
    content, _ = _redated("User's dentist appt is on march 28 (2026-03-28)", "monday", "User's plan is now on monday (2026-03-09)",
                          load_rules().temporal, now)
    assert content.endswith("(2026-03-30)")


def test_a_new_date_of_a_named_plan_with_none_before_stands_alone(store, tmp_path):
    ingest(store, tmp_path, "u8", ("2026-07-21T10:00:00Z", ["update, my start date got pushed to October 1 because of visa processing"]))
    assert active(store, "u8") == ["User's start date is now on october 1 (2026-10-01)"]


def test_a_named_plan_said_with_just_keeps_its_name(store, tmp_path):
    ingest(store, tmp_path, "u10", ("2026-03-02T10:00:00Z", ["my trip to Rome is on march 20"]),
           ("2026-03-03T10:00:00Z", ["the trip just got moved to the 28th"]))
    assert active(store, "u10") == ["User's trip to Rome is on the 28th (2026-03-28)"]


@pytest.mark.parametrize("new", ["it got moved to the 14th", "家长会改到周四晚上了"])  # (which Thursday, only the plan's week says)
def test_a_new_date_with_no_plan_before_it_is_not_kept(store, tmp_path, new):
    ingest(store, tmp_path, "u4", ("2026-07-21T10:00:00Z", [new]))
    assert active(store, "u4") == []


@pytest.mark.parametrize("old, new, gone", [
    ("My dream is to run a marathon.", "I finally ran my first marathon last Sunday!", "wants"),
    ("我的目标是明年考上研究生", "我已经考上研究生了", "目标"),
    ("I'm planning a trip to Japan in March.", "The Japan trip is cancelled.", "trip"),
    ("我下个月要去杭州出差", "杭州出差取消了", "出差"),
])
def test_an_achieved_or_cancelled_plan_is_closed(store, tmp_path, old, new, gone):
    ingest(store, tmp_path, "u2", ("2026-10-01T10:00:00Z", [old]), ("2026-11-01T10:00:00Z", [new]))
    goals = [m for m in store.memories("u2") if m.type in ("goal", "task")]
    assert not goals, [m.content for m in goals]


@pytest.mark.parametrize("text, content", [
    # A gerund phrase as the subject: the user is its object, not "User is working ... helps them".
    ("Working on cars really helps me relax.", ["Working on cars really helps the user relax"]),
    ("Flying to Denver next week for my cousin's wedding.",
     ["User is flying to Denver next week for their cousin's wedding (2026-12-07~2026-12-13)"]),
    # A verb of two words takes its ending on the verb ("meal preps", not "meals prep").
    ("I meal prep on Sundays for the whole week.", ["User meal preps on Sundays for the whole week"]),
    # 我 becomes 用户, never a second 用户 in front; what was watched, said first, follows the verb.
    ("武林外传我也看过", ["用户看过武林外传"]),
    # ... but a nod to what the other speaker brought up, seen in part, is no fact to keep.
    ("武林外传我也看过一些", []),
    ("我那么爱吃的一个人", ["用户很爱吃"]),
    # "we" named by what it did; the user named at their first mention; "I" in lower case.
    ("we got married in June 2019 in Vermont", ["User and their partner got married in June 2019 in Vermont (2019-06)"]),
    ("we do two-week sprints, planning is monday mornings", ["User's team does two-week sprints, planning is Monday mornings"]),
    ("at our firm anything over $5k needs partner sign-off", ["At the user's firm anything over $5k needs partner sign-off"]),
    ("I moved to Oslo when I was ten", ["User moved to Oslo when they were ten"]),
    # Only the user's own verb agrees, not one inside a clause of its own.
    ("I love how my dogs can run around and explore", ["User loves how their dogs can run around and explore"]),
    # ... and a "they" whose noun was in the other message is not resolved by guessing: dropped.
    ("I love how they can fly around and explore", []),
    # The fact without the request for the task at hand; discourse words go.
    ("i'm a freelance translator so help me keep these invoices simple", ["User is a freelance translator"]),
    ("Last year I visited Italy, for example", ["User visited Italy last year (2025)"]),
    ("Playing guitar is my favourite hobby", ["Playing guitar is the user's favourite hobby"]),
    # Chat typed without capitals: sentences end at a full stop all the same, and "i" is "I".
    ("budget around 1900 max. no car, sold it before the move. oh and i have a cat, Pickles, 9 yo tabby",
     ["User has a cat, Pickles, 9 yo tabby"]),
    ("i think i want to start selling online. finally have a kiln in my garage", ["User thinks they want to start selling online"]),
    # What "it", "one", "there" and 那时 point to was said in another turn: nothing to keep.
    ("I'd love to try it sometime", []),
    ("I tried making one", []),
    ("I would love to take the dogs there sometime soon", []),
    ("那时我上初二", []),
    # Passing moods and moments.
    ("I've been on an emotional rollercoaster lately", []),
    ("刚在超市买了一大包糖", []),
    ("我家狗刚把拖鞋咬烂了", []),
    ("Been a while", []),
    # A question without its question mark, a subordinate clause without its main clause.
    ("北京到西安高铁要多久", []),
    ("每次他在家看比赛", []),
])
def test_clauses_read_as_sentences_or_are_dropped(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, type_", [
    ("our dog is called Biscuit, he's a 4 yr old beagle", "profile"),  # a pet's name is who it is, not an event
    ("my son is called Noah", "profile"),
    ("家里养了只橘猫叫胖虎，八岁了", "profile"),
    ("can't stand horror movies, never suggest them", "preference"),  # "never suggest" is a rule for the assistant
    ("I always book an aisle seat", "behavior"),  # "I always ..." stays a habit
])
def test_names_and_rules_for_the_assistant_are_typed_as_what_they_are(text, type_):
    got = said(text)
    assert got and all(c.type == type_ for c in got)


def test_the_users_thing_named_with_words_before_it_answers_the_question():
    # "你的咖啡店" is the user's shop as much as "你的店": the answer without a subject is its.
    found = said(("assistant", "去吧，对了，你的咖啡店筹备的怎么样了"), "已经差不多了，预计下周开业哦")
    assert [(c.subject, c.content) for c in found] == [("咖啡店", "用户的咖啡店预计下周开业（2026-12-07~2026-12-13）")]


@pytest.mark.parametrize("text, content", [
    # A time said alone before a comma dates what follows it: a one-off dinner is no habit,
    # a trip next month is a dated task.
    ("这周日，我老婆在家做大餐，你也来吃饭吧", []),
    ("下个月，我要去日本出差", ["用户下个月要去日本出差（2026-12）"]),
    ("明天晚上，我和朋友去看电影", ["用户和朋友明天晚上去看电影（2026-12-01）"]),
])
def test_a_time_before_a_comma_belongs_to_the_next_clause(text, content):
    assert contents(text) == content


def test_me_and_my_in_a_fact_about_someone_else_are_the_users():
    found = said(("assistant", "Does your partner do yoga with you?"),
                 "He started joining me sometimes, which is nice for bonding and relaxing.")
    assert [c.content for c in found] == ["User's partner started joining the user sometimes"]
    assert contents("My son borrowed my car.") == ["User's son borrowed the user's car"]
    # The user's own facts keep "their".
    assert contents("I lost my job last month, which has been pretty rough") == ["User lost their job last month (2026-10)"]


def test_we_who_met_are_not_a_team():
    assert contents(("assistant", "So, how did you two meet?"),
                    "We actually met in an engineering class in college and quickly became friends.") == []
    assert contents("We met at work and got married in 2019.") == ["User and their partner met at work and got married in 2019 (2019)"]


@pytest.mark.parametrize("text", [
    # Praise of what is dear to the user, a passing doubt, luck: how they feel, not a fact.
    "My car is the best!", "Our puppy is a bundle of joy", "He has been awesome since we adopted him",
    "I do love my dog so much!", "I'm lucky to have at least two people who always help me out when I'm struggling.",
    "I feel like I can't overcome all the challenges with my weight", "我对朋友一直都很好的",
    # Of nothing named.
    "Learned some great tips.", "I had an unexpected adventure last week", "I'm always down to try new recipes",
    "I'm planning to spend more time in nature myself!", "I'm trying to take breaks from my hobbies and do other things",
])
def test_warm_words_and_vague_remarks_are_not_memories(text):
    assert contents(text) == []


@pytest.mark.parametrize("text, content", [
    ("I really love cats", "User really loves cats"),
    ("My dog is a golden retriever", "User's dog is a golden retriever"),
    ("I learned some great recipes from my grandma", "User learned some great recipes from their grandma"),
])
def test_likes_and_facts_next_to_warm_words_stay(text, content):
    assert contents(text)[:1] == [content]


@pytest.mark.parametrize("text, content", [
    # How it felt, cut from the fact; a moment's reaction and "somewhere fun" say nothing.
    ("Last night I played my first gig and wow, was I blown away by all the nice comments",
     ["User played their first gig last night (2026-11-29)"]),
    ("it was too funny!", []),
    ("Yep, last month I drove somewhere fun", []),
    ("My dog is from a shelter and he's been awesome since I adopted him", ["User's dog is from a shelter"]),
    # Someone else opens a clause typed without a comma: the user's fact ends before them.
    ("我现在天天吃冰淇淋爸爸也不能管我了", ["用户现在天天吃冰淇淋"]),
    # Liked or played with, but what: said in the clause before (a game played is carried over).
    ("我最喜欢吃火锅老婆也很喜欢", ["用户最喜欢吃火锅"]),
    ("好啊，我也喜欢打游戏，我在宿舍的时候经常跟舍友一起玩", ["用户喜欢打游戏", "用户在宿舍的时候经常跟舍友一起玩游戏"]),
    ("我养了一只白色的泰迪，超级可爱", ["用户养了一只白色的泰迪，超级可爱"]),
])
def test_feelings_and_run_ons_are_cut_from_the_fact(text, content):
    assert contents(text) == content


def test_a_fact_of_a_past_day_is_an_event_and_a_lone_time_clause_is_no_habit():
    found = said("My friends were mocking my weight last Friday")
    assert [(c.type, c.content) for c in found] == [("event", "User's friends were mocking their weight last Friday (2026-11-27)")]
    assert contents("Every time I step in, it's like an adrenaline rush!") == []
    assert contents("I used to bake cookies with someone close to me") == []
    assert contents("Whenever I can, I try to go to nearby parks or on hikes") == [
        "Whenever the user can, they try to go to nearby parks or on hikes"]


@pytest.mark.parametrize("text, content", [
    # A pastime of the last days is a moment: the episode keeps it.
    ("I watched The Godfather last night", []),
    ("I went bowling and got 2 strikes yesterday", []),
    ("I got a cool video card last week", []),
    ("I had a card-night with my friends last Friday", []),
    # What changed, where they travelled, a first, a health fact, the people they did it with stay.
    ("I got a new job last week", ["User got a new job last week (2026-11-23~2026-11-29)"]),
    ("Last week I went to a music festival in Boston", ["User went to a music festival in Boston last week (2026-11-23~2026-11-29)"]),
    ("I played my first gig last Friday", ["User played their first gig last Friday (2026-11-27)"]),
    ("I got a flu shot last week", ["User got a flu shot last week (2026-11-23~2026-11-29)"]),
    ("My girlfriend and I went fishing at the lake last weekend",
     ["User and their girlfriend went fishing at the lake last weekend (2026-11-28~2026-11-29)"]),
])
def test_a_pastime_of_the_last_days_is_a_moment(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Standing rules about answers, in the user's words or the assistant's.
    ("Don't use emojis in your replies to me, please.", ["User prefers no emojis in replies"]),
    ("dont use emojis in ur replies, it bugs me", ["User prefers no emojis in replies"]),
    ("Keep your answers under 150 words unless I ask for more.", ["User prefers answers under 150 words unless i ask for more"]),
    ("when you write code for me use typescript not plain js, always", ["User prefers typescript not plain js in code"]),
    ("回复里别加那么多emoji 看着乱", ["用户希望回复里别加那么多emoji"]),
    ("写代码的时候给我加上中文注释，这样我看得懂", ["用户希望写代码的时候加上中文注释"]),
    # Dated plans with no "I", typed short; asking to be reminded keeps the plan.
    ("Taking the GRE on August 19th.", ["User is taking the GRE on August 19th (2027-08-19)"]),
    ("dentist thurs at 3pm dont let me forget", ["User has a dentist appointment thurs at 3pm (2026-12-03)"]),
    ("明晚要给客户做方案演示", ["用户明晚要给客户做方案演示（2026-12-01）"]),
    ("下周三下午两点我要去医院复查，提醒我一下", ["用户下周三下午两点要去医院复查（2026-12-09）"]),
    ("plan is to move apartments end of next month", ["User's plan is to move apartments end of next month (by 2026-12)"]),
    ("trying to pay off my 8k credit card debt by the end of next year",
     ["User is trying to pay off their 8k credit card debt by the end of next year (by 2027)"]),
    # Not a forget request, not a secret.
    ("id like to drop about 8kg before my sisters wedding in june",
     ["User would like to drop about 8kg before their sister's wedding in june (2027-06)"]),
    ("got my driver's license on my 3rd try last tuesday",
     ["User got their driver's license on their 3rd try last Tuesday (2026-11-24)"]),
])
def test_standing_rules_short_dated_plans_and_false_alarms(text, content):
    assert contents(text) == content


def test_a_plan_said_beside_a_request_is_kept_as_the_fact_it_is():
    # bench/LABELLING.md: a message mixing a fact and a request keeps the fact.
    assert contents("我下周要考试，帮我出十道题") == ["用户下周要考试（2026-12-07~2026-12-13）"]
    assert contents("presenting the q3 roadmap to the execs next wednesday, can u help me outline it?") == [
        "User is presenting the q3 roadmap to the execs next Wednesday (2026-12-09)"]
    # The request itself is not kept.
    assert contents("帮我出十道题") == []


@pytest.mark.parametrize("text, content", [
    # Jobs, places and ways of work said plainly.
    ("我是杭州一家互联网公司的产品经理，做电商方向的。", ["用户是杭州一家互联网公司的产品经理"]),
    ("我是外卖骑手，中午和晚上最忙，别在那时候给我发长消息", ["用户是外卖骑手，中午和晚上最忙"]),
    ("I'm a night shift security guard, so i sleep from 8am to 3pm",
     ["User is a night shift security guard", "User sleeps from 8am to 3pm"]),
    ("I work remotely from Cape Town, so I'm on SAST (UTC+2).", ["User works remotely from Cape Town"]),
    ("my brother runs a small bike repair shop in Porto", ["User's brother runs a small bike repair shop in Porto"]),
    ("All PRs on our team need two approvals before they can be merged.",
     ["User's team's PRs need two approvals before they can be merged"]),
    ("staging is on k8s in eu-west-1, prod in us-east-2", ["User's staging is on k8s in eu-west-1, prod in us-east-2"]),
    ("缓存从Memcached换成Redis Cluster了 后面问题按这个来", ["用户的缓存从Memcached换成Redis Cluster了"]),
    ("公司代码合并要两个人review 还得跑通集成测试", ["用户的公司代码合并要两个人review 还得跑通集成测试"]),
    # Family, home, health, habits and aims.
    ("我们家住六楼，没电梯", ["用户家住六楼，没电梯"]),
    ("我左耳听力不太好，所以比较喜欢文字沟通", ["用户左耳听力不太好", "用户比较喜欢文字沟通"]),
    ("我爸下周三做白内障手术", ["用户的爸爸下周三做白内障手术（2026-12-09）"]),
    ("奶奶今年春节走了", ["用户的奶奶今年春节走了（2026）"]),
    ("我晚上十一点前一定睡觉，雷打不动", ["用户晚上十一点前一定睡觉，雷打不动"]),
    ("争取三十五岁前换个城市生活", ["用户争取三十五岁前换个城市生活"]),
    ("这学期目标绩点3.8以上", ["用户这学期目标绩点3.8以上"]),
    ("I really can't do horror movies, jump scares wreck me", ["User really can't do horror movies, jump scares wreck them"]),
    ("honestly I'd love to eventually switch from accounting into UX design, been thinking about it for a while",
     ["User would love to eventually switch from accounting into UX design"]),
    ("I have two kids, Maya is 7 and Leo just turned 4", ["User has two kids, Maya is 7 and Leo just turned 4"]),
    # What has just happened is a moment; "比较" before a like is no request to compare.
    ("my son just spilled juice all over the couch", []),
    ("娃刚把饭打翻了", []),
    ("比较喜欢看悬疑推理类的小说", ["用户比较喜欢看悬疑推理类的小说"]),
])
def test_plain_facts_the_held_out_sets_found_missing(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # A date alone makes no plan: how a weekend will feel, a rhetorical question, being busy.
    ("这么放松的周末", []),
    ("球赛有什么好看的", []),
    ("我周六下午还有事", []),
    ("I had a check-up with my doctor a few days ago and, yikes, the weight wasn't great",
     ["User had a check-up with their doctor a few days ago (2026-11-25~2026-11-28)"]),
    ("My dogs are like my family", []),
    ("She got out", []),
])
def test_what_a_date_or_an_aside_does_not_make_a_fact(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Misses of held-out set 10, read after it was measured (it is development data now).
    ("im red-green colorblind so when u make charts pls dont rely on red vs green", ["User is red-green colorblind"]),
    ("dont call me buddy or pal its weird, just use my name", ["User prefers: don't call the user buddy or pal, just use the user's name"]),
    ("from now on when u give me recipes just list ingredients + steps, skip the life story",
     ["User prefers: just list ingredients + steps for recipes"]),
    ("aiming to get my aws solutions architect cert this quarter", ["User is aiming to get their aws solutions architect cert this quarter"]),
    ("my son jamal wants to make the varsity basketball team next year so we've been working on his shooting",
     ["User's son Jamal wants to make the varsity basketball team next year (2027)"]),
    ("my pottery studio opens to the public on may 3rd, so nervous", ["User's pottery studio opens to the public on may 3rd (2027-05-03)"]),
    ("代码示例请用typescript，别给我写js了", ["用户希望代码示例用typescript"]),
    ("公司commit规范是feat/fix/chore开头，不然ci过不了", ["用户的公司commit规范是feat/fix/chore开头，不然ci过不了"]),
    ("我不太能吃甜的，奶茶都点三分糖", ["用户不太能吃甜的", "用户奶茶都点三分糖"]),
    # What would follow a supposition is no fact; a gerund that is the subject is no plan.
    ("要是中了五百万，我立马辞职环游世界", []),
    ("Learning about the connections between them must be so cool", []),
    ("and drinks with my friends", []),
])
def test_what_held_out_set_10_missed(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Misses of held-out set 11 (topic-first and subject-less facts), read after it was measured.
    ("sundays are meal prep days, i cook for the whole week in one go", ["User's Sundays are meal prep days"]),
    ("~30 min of piano every morning before coffee", ["User does about 30 minutes of piano every morning before coffee"]),
    ("lefty here 😅 most calligraphy tutorials assume right hand, can u find one for left-handers", ["User is left-handed"]),
    ("cilantro tastes like soap to me, leave it out of any recipe", ["Cilantro tastes like soap to the user"]),
    ("horror is a hard no for me. slow korean dramas on the other hand... yes", ["Horror is a hard no for the user"]),
    ("long term dream is a small farm in vermont with goats. no timeline, just the plan",
     ["User's long term dream is a small farm in vermont with goats"]),
    ("Biscuit (our cat) is 14 now and on a kidney diet, so no treats high in phosphorus please",
     ["User's cat Biscuit is 14 now and on a kidney diet"]),
    ("i run a lil bike repair shop out in ballarat, just me and one part-timer",
     ["User runs a lil bike repair shop out in ballarat, just them and one part-timer"]),
    ("oh yeah bc i just LOVE doing expense reports 🙄", []),
    ("拿到字节的offer了！！下个月15号入职", ["用户拿到字节的offer了", "用户下个月15号入职（2026-12-15）"]),
    ("这个月底之前要交论文初稿", ["用户这个月底之前要交论文初稿（截止 2026-11）"]),
    ("实验室的离心机用之前必须在系统里预约登记，不然会被导师骂", ["用户的实验室的离心机用之前必须在系统里预约登记，不然会被导师骂"]),
    ("需求我们在飞书文档里管，bug走jira", ["用户的需求在飞书文档里管"]),
    ("以后别每次开头都夸我问题问得好，直接上答案", ["用户希望以后别每次开头都夸用户问题问得好，直接上答案"]),
    ("午觉必须睡半小时，不然下午整个人是废的", ["用户午觉必须睡半小时，不然下午整个人是废的"]),
    ("这学期绩点冲3.8", ["用户这学期绩点冲3.8"]),
    ("这个很好吃", []),
])
def test_what_held_out_set_11_missed(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Misses of held-out set 12, read after it was measured.
    ("english is actually my 3rd language (portuguese first, then tagalog) so sorry for the typos", None),
    ("quick thing, our daughter Nia (she's 6) is allergic to sesame, like epipen-level allergic. so no tahini, no hummus, nothing",
     ["User's daughter Nia, who is 6, is allergic to sesame, like epipen-level allergic"]),
    ("for future reference our stack is postgres + django, deployed on fly.io", None),
    ("i learn best when u start with an analogy and THEN get technical, fyi", None),
    ("company rule: no customer data in external tools, so anything i paste here will be anonymized",
     ["User's company rule: no customer data in external tools"]),
    ("Biscuit (our 4yo corgi) gets walked twice a day, 7am and after dinner, rain or shine", None),
    ("dentist thurs 3:30, remind me to ask about a night guard",
         ["User has a dentist appointment thurs 3:30 (2026-12-03)", "User has to ask about a night guard (2026-12-03)"]),
    ("my big reading goal this year is to finally get through all of proust. yes all seven volumes", None),
    ("ok so some context before i ask: im 34, live in leeds w my wife, and i work nights at a bakery. anyway can u help me plan a bday dinner",
     None),
    ("my partner Devi defends her PhD at Edinburgh on june 12, im so nervous for her",
     ["User's partner Devi defends her PhD at Edinburgh on june 12 (2027-06-12)"]),
    ("grant report due friday 5pm, that's my one priority this week", None),
    ("from now on give me code examples in rust unless i say otherwise",
     ["User prefers code examples in rust unless the user says otherwise"]),
    ("希望明年能带爸妈去趟新疆，他们念叨好久了", None),
    ("订酒店的话一定要有浴缸，这个对我很重要", ["用户订酒店的话一定要有浴缸"]),
    ("我老公在中学教物理，寒暑假比我闲多了", None),
    # Still only moments and feelings.
    ("My dogs always make me smile", []),
])
def test_what_held_out_set_12_missed(text, content):
    got = contents(text)
    assert got == content if content is not None else got


@pytest.mark.parametrize("text, content", [
    # A dream, a good time, a pet's moment, an errand: moments the episode keeps.
    ("I had an amazing dream last night where I was soaring over skyscrapers", []),
    ("I had an awesome time", []),
    ("My dogs were able to run around and get some fresh air last weekend", []),
    ("I went to a pet store last Monday to buy toys for my dogs", ["User has dogs"]),  # (the errand is the moment)
    ("I can't live without my little ones", []),
    # A pet's health stays; a typed "a painting classes" and "few days ago" read.
    ("My dog had surgery last week", ["User's dog had surgery last week (2026-11-23~2026-11-29)"]),
    ("I also started taking a painting classes few days ago", ["User started taking painting classes a few days ago (2026-11-25~2026-11-28)"]),
    ("Last Tues I met three cool new friends in my programming course, they share the same passion as me",
     ["User met three cool new friends in their programming course last tues, they share the same passion as the user (2026-11-24)"]),
])
def test_moments_and_typos_of_the_judged_sample_353(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Misses of held-out set 13, read after it was measured.
    ("goal for this year: pay off the last 12k of my student loan",
     ["User's goal for this year: pay off the last 12k of their student loan (2026)"]),
    ("trying to get my japanese to N2 before we move to Osaka", ["User is trying to get their japanese to N2 before they move to Osaka"]),
    ("Every first Saturday of the month I volunteer at the food bank on Maple St",
     ["Every first Saturday of the month the user volunteers at the food bank on Maple St"]),
    ("My wife Priyanka is a structural engineer at a bridge design firm, in case that comes up when i ask about her work stuff",
     ["User's wife Priyanka is a structural engineer at a bridge design firm"]),
    ("FYI every PR on my team needs two approvals and a green Cypress run before merge",
     ["Every PR on the user's team needs two approvals and a green Cypress run before merge"]),
    ("I have a job interview with Shopify next Tuesday morning, super nervous",
     ["User has a job interview with Shopify next Tuesday morning (2026-12-08)"]),
    ("the warehouse runs 3 shifts and night shift does all the cycle counts",
     ["User's warehouse runs 3 shifts and night shift does all the cycle counts"]),
    ("推荐电影的话别推恐怖片，看完我睡不着", ["用户希望推荐电影的话别推恐怖片"]),
    ("项目的接口文档统一放在YApi上，改接口之前要先更新文档", ["用户的项目的接口文档统一放在YApi上"]),
    ("最近在练字，希望以后能写一手好看的行楷", ["用户希望以后能写一手好看的行楷"]),
    ("订酒店的时候优先考虑带健身房的，其他无所谓", ["用户订酒店的时候优先考虑带健身房的，其他无所谓"]),
    # An opinion of a film is no fact; a skill said as "一般般" is.
    ("昨晚那部电影一般般吧", []),
    ("粤语普通话都ok，英语就一般般，看文档还行说不太出口", ["用户英语就一般般，看文档还行说不太出口"]),
])
def test_what_held_out_set_13_missed(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Misses and false alarms of held-out set 14, read after it was measured.
    ("just finished my workout, feeling good", []),
    ("the coffee machine at work broke again", []),
    ("for this reply just give me the answer in french", []),
    ("我舅舅昨天钓了条十斤的鱼", []),
    ("mum texted telling me to wear a jacket lol", []),
    ("Grandma Rosa passed away in january, so the holidays are gonna feel weird this year",
     ["User's grandma Rosa passed away in january (2026-01)"]),
    ("languages: tagalog (native), english, and a bit of spanish", ["User's languages are tagalog (native), english, and a bit of spanish"]),
    ("dentist appt on the 14th at 3:30, remind me the day before?", None),
    ("trying to cut my screen time down to 2 hrs a day", None),
    ("when I ask for recipes give me metric measurements, I don't own measuring cups", None),
    ("every friday night is pizza + movie night w the kids, it's our thing", None),
    ("no coffee after 2pm for me, otherwise I can't sleep", None),
    ("以后想回老家开个农家乐，不着急，先攒钱", None),
    ("回答问题先给结论再解释，别绕弯子", None),
    ("菜谱给我用克数，别写'少许''适量'这种", None),
    ("我们这边数仓用hive和doris，调度用dolphinscheduler，跑批在凌晨两点", None),
    ("家里的猫叫年糕，每天晚上九点喂一次罐头", None),
    ("更新一下：搬家改到7月5号了，原来定的是6月底", ["用户搬家改到7月5号，原来定的是6月底（2027-07-05）"]),
])
def test_what_held_out_set_14_missed(text, content):
    got = contents(text)
    assert got == content if content is not None else got



@pytest.mark.parametrize("text, content", [
    # Notes of judged sample 359.
    ("Let's keep going! We won't lose focus on our goals.", []),
    ("Look, I was playing a game and my faithful furry friend Daisy came and lay down next to me.", []),
    ("Will be actually cool to build an app for dog walking and pet care. The goal is to connect pet owners with reliable dog walkers", []),
])
def test_what_judged_sample_359_noted(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Notes of judged sample 367: a verb joined to the user's agrees with them; "my gf, Toby,
    # and I" is a list (Toby is the dog); "started" and "learned to play" with nothing after
    # them lost their object; an aim told in the past is no current goal.
    ("but I also joined a chess club and practice with others", ["User joined a chess club and practices with others"]),
    ("I joined a gym and go three times a week", ["User joined a gym and goes three times a week"]),
    ("I like coffee and tea with milk", ["User likes coffee and tea with milk"]),
    ("my wife, Ana, and I love hiking", ["User and their wife and Ana love hiking"]),
    ("my wife Ana and I love hiking", ["User and their wife Ana love hiking"]),
    ("I started a few days ago", []),
    ("I started a new job last week", ["User started a new job last week (2026-11-23~2026-11-29)"]),
    ("Even as a child I learned to play on my own", []),
    ("I learned to play the piano as a kid", ["User learned to play the piano as a kid"]),
    ("My dream was to open a shop", []),
    ("my goal is to run a marathon", ["User's goal is to run a marathon"]),
    ("we tried so many unique wines and learned a lot", []),
    ("I learned a lot about budgeting from my dad", ["User learned a lot about budgeting from their dad"]),
    ("I'm trying to make this new algorithm work better", []),
    ("Super stoked to share my passion and help out with folks' rides", []),
    ("I want to make sure I'm not limiting Toby's growth but not taking him out not enough", []),
])
def test_what_judged_sample_367_noted(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("turns, content", [
    # Notes of the fresh sample bench/fresh18 (seed 379): a "你" or chat debris copied into a
    # standing instruction, a job said with "the", a correction that takes back the clause
    # before it, a name taken for the user's, a pronoun after a time word.
    (["以后英文单词你都帮我标一下音标吧 我发音不太行"], ["用户希望以后英文单词都标一下音标"]),
    (["以后你给的东西最好直接是latex代码"], ["用户希望以后助手给的东西最好直接是latex代码"]),
    (["yes pls, go examples by default"], ["User prefers: go examples by default"]),
    (["looks good but use australian spelling pls, 'organize' made me twitch"], ["User prefers australian spelling"]),
    (["always aussie spelling for me"], ["User prefers: always aussie spelling for the user"]),
    (["house style for any drafts you do for me: British spelling, formal tone"],
     ["User prefers: house style for any drafts the assistant does for the user: British spelling, formal tone"]),
    (["good. for context im the HR manager at a logistics company in Manchester."],
     ["User is the HR manager at a logistics company in Manchester"]),
    (["i drive otr, home base is in dayton ohio"], ["User drives otr, home base is in dayton ohio"]),
    (["yeah physio said tendinopathy in jan"], []),
    (["My doc said my weight's a serious health risk"], ["User's doc said their weight's a serious health risk"]),
    (["sorry bit distracted today, dad's care home rang this morning, his dementia's been worse this week"],
     ["User's dad's care home rang this morning, his dementia's been worse this week"]),
    (["need to write a rejection email for a warehouse supervisor candidate who made it to final round"], []),
    (["我在武汉一所大学教高数 哦不对 我这学期开始改教线性代数了"], ["用户这学期开始改教线性代数了"]),
    (["我在西安开了家小咖啡店 叫慢半拍"], ["用户在西安开了家小咖啡店，叫慢半拍"]),
    (["我家有只猫 叫咪咪"], ["用户家有只猫，叫咪咪"]),
    (["我姓王 叫王小明"], ["用户叫王小明"]),
    (["朵朵今天又不肯睡午觉", "哦对 朵朵对鸡蛋过敏"], ["朵朵对鸡蛋过敏"]),
    (["我儿子乐乐五岁", "乐乐对芒果过敏"], ["用户的儿子乐乐五岁", "用户的儿子乐乐对芒果过敏"]),
    (["天天加班好累"], []),
    (["另外小雨下个月要请两周假回老家结婚"], []),
    (["我家柯基可乐最近老是啃拖鞋", "可乐老是啃拖鞋"], ["用户的柯基可乐最近老是啃拖鞋", "用户的柯基可乐老是啃拖鞋"]),
    (["我家柯基可乐最近老是啃拖鞋", "宠物医院说要提前禁食", "我天天加班 所以白天她都是一个人在家"],
     ["用户的柯基可乐最近老是啃拖鞋", "用户天天加班", "用户的柯基可乐白天都是一个人在家"]),
])
def test_what_fresh_sample_379_noted(turns, content):
    assert contents(*turns) == content


@pytest.mark.parametrize("turns, content", [
    # Notes of the fresh sample bench/fresh19 (seed 383): emoji, chat words and the aftermath
    # of a fact ("so consistency is... a challenge", "which is why i'm up", "甲方催得要死", "谢了")
    # are no part of a memory; a rule to the assistant reads as what the user prefers; a model
    # year is no date; a dated or undated plan is a task or a goal, a former job a profile.
    (["so i just adopted a retired racing greyhound 🐕"], ["User just adopted a retired racing greyhound"]),
    (["i write after my shifts at the cafe (barista in portland lol), usually around midnight which is why i'm up"],
     ["User writes after their shifts at the cafe (barista in portland), usually around midnight"]),
    (["but i'm an ER nurse in chicago and work 12s three days a week so consistency is... a challenge"],
     ["User is an ER nurse in chicago and works 12s three days a week"]),
    (["Company policy says no customer data in external AI tools, which is why i always scrub names"], None),
    (["also pls use UK spelling always, last tool i used kept writing 'hemorrhage'"], ["User prefers UK spelling"]),
    (["always give me quantities in metric btw, grams and ml"], ["User prefers quantities in metric, grams and ml"]),
    (["also only give me go examples pls."], ["User prefers only go examples"]),
    (["i'm restoring a 1972 honda cb350 in my garage over the winter"],
     ["User is restoring a 1972 honda cb350 in their garage over the winter"]),
    (["i'm a pharmacist in Leeds (community"], ["User is a pharmacist in Leeds"]),
    (["ok that helps. btw i use zotero + overleaf"], ["User uses zotero + overleaf"]),
    (["ur a lifesaver. im working like 20 hrs a week at a cafe in rathmines so time is tight"],
     ["User is working like 20 hrs a week at a cafe in rathmines"]),
    (["Im a retired high school shop teacher"], ["User is a retired high school shop teacher"]),
    (["full thesis submission is 30 sept 2027"], ["User's thesis submission is 30 sept 2027"]),
    (["so i need a rotation of gluten free weekday dinners that the whole family will eat"], []),
    (["my sister in law turns 70 in october so we can't go then"], []),
    (["孩子叫，小满"], ["用户的孩子叫小满"]),
    (["我在深圳做外包的 甲方催得要死"], ["用户在深圳做外包的"]),
    (["调好了 你说话简单点 别整那么长"], ["用户希望回答简单点，别整那么长"]),
    (["我以前做会计"], ["用户以前做会计"]),
    (["我跟对象阿杰打算辞职去大理开个小咖啡店"], ["用户跟对象阿杰打算辞职去大理开个小咖啡店"]),
])
def test_what_fresh_sample_383_noted(turns, content):
    got = said(*turns)
    if content is None:
        assert got and all(c.content.startswith("Company policy") for c in got)  # the policy stays whole
    else:
        assert [c.content for c in got] == content


def test_a_former_job_is_a_profile_and_an_undated_plan_a_goal():
    assert [c.type for c in said("我以前做会计")] == ["profile"]
    assert [c.type for c in said("我跟对象阿杰打算辞职去大理开个小咖啡店")] == ["goal"]
    assert [c.type for c in said("9月中旬要回银行上班了", when=datetime(2026, 5, 1, tzinfo=timezone.utc))] == ["task"]


@pytest.mark.parametrize("turns, content", [
    # Facts the reader of bench/fresh19 found in no memory: an emoji ends what was said
    # before it; "adopted a greyhound ... her name is Pepper" is the user's pet; "he" is the
    # one person the conversation named whom "he" can be; a name with a lasting fact of health
    # or diet is that person's; a question tacked on a goal leaves the goal; Chinese typed with
    # spaces stays one clause where a part cannot end; an age or a school year said bare.
    (["hiii so i just adopted a retired racing greyhound 🐕 her name is Pepper shes 4."],
     ["User just adopted a retired racing greyhound", "User's greyhound's name is Pepper", "User's greyhound is 4"]),
    (["my son leo is 2 and a half", "my mom watches him at her place those days", "also he's allergic to peanuts so no m&ms"],
     ["User's son Leo is 2 and a half", "User's son Leo is allergic to peanuts"]),
    (["he is obsessed with garbage trucks rn 😂 he screams every time he sees one"], []),
    (["My wife and I are planning a trip. Margaret has a dodgy right knee so we can't do loads of stairs."],
     ["User and their wife are planning a trip", "Margaret has a dodgy right knee", "User and their wife can't do loads of stairs"]),
    (["Melanie is kind"], []),
    (["goal is lose 10kg by xmas, doable?"], ["User's goal is lose 10kg by xmas (by 2026-12-25)"]),
    (["my wife Leilani is gonna walk with me evenings so thats something"], ["User's wife Leilani is going to walk with the user evenings"]),
    (["I adopted a greyhound. She won't go up the stairs, and she cries at night when I go to bed."],
     ["User adopted a greyhound", "User's greyhound won't go up the stairs, she cries at night when the user goes to bed"]),
    (["我47"], ["用户47岁"]),
    (["还有我闺女今年高二"], ["用户的闺女今年高二（2026）"]),
    (["我是小学数学老师 带三年级"], ["用户是小学数学老师，带三年级"]),
    (["我家俩猫 晚上老打架"], ["用户家俩猫，晚上老打架"]),
    (["我戒烟了"], ["用户戒烟了"]),
    (["还有明年打算在 江北 开个分店"], ["用户明年打算在江北，开个分店（2027）"]),
    (["我在上海上班回不去 心里特别着急"], ["用户在上海上班回不去"]),
])
def test_what_fresh_sample_383_missed(turns, content):
    assert contents(*turns) == content


@pytest.mark.parametrize("turns, content", [
    # Money on a schedule is a habit; units are a rule; a child does not save or pay a mortgage.
    (["oh and i send 200 a month to my mom in belo horizonte"], ["User sends 200 a month to their mom in belo horizonte"]),
    (["i save 500 a month"], ["User saves 500 a month"]),
    (["and use imperial units please, i'm old school"], ["User prefers imperial units"]),
    (["我孩子两岁了 打算每月存2000 存到18岁"], ["用户的孩子两岁了", "用户打算每月存2000 存到18岁"]),
])
def test_money_units_and_whose_plan(turns, content):
    assert contents(*turns) == content


@pytest.mark.parametrize("text, content", [
    # Readers of LoCoMo/DuLeMon sample 397 and of bench/fresh20 (seed 389): words that answer the
    # other speaker ("also", "actually", 也, 其实, 可是) and an emphatic "does"/"did" are no part of
    # a fact; a rule said with "的时候" is one clause; a question after a fact is dropped; a bare
    # number-word after 用户 is no statement; a rule of reply words keeps its order.
    ("I also joined a chess club last year", ["User joined a chess club last year (2025)"]),
    ("I'm actually going to Tokyo next month", ["User is going to Tokyo next month (2026-12)"]),
    ("I do sketch occasionally", ["User sketches occasionally"]),
    ("my husband Tom does school drop offs every morning", ["User's husband Tom does school drop offs every morning"]),
    ("我也很喜欢小狗", ["用户很喜欢小狗"]),
    ("我可是个壮年男子", ["用户是个壮年男子"]),
    ("我老家其实是梅州的", ["用户的老家是梅州的"]),
    ("以后给建议的时候 直接给我一句能说出口的话", ["用户希望以后给建议的时候直接给一句能说出口的话"]),
    ("我在上海浦东买了个二手房 两室 准备翻新 全包还是半包好", ["用户在上海浦东买了个二手房，两室，准备翻新"]),
    ("我大三 在武汉读计算机", ["用户大三，在武汉读计算机"]),
    ("keep answers short and in bullet points pls", ["User prefers answers short and in bullet points"]),
    ("my roommate Jess is moving out in november so that might double", ["User's roommate Jess is moving out in november (2026-11)"]),
    ("我平时不吃香菜", ["用户平时不吃香菜"]),
])
def test_what_samples_397_and_389_noted(text, content):
    assert contents(text) == content


def test_a_food_avoided_is_a_preference_a_day_without_it_a_habit():
    assert [c.type for c in said("我平时不吃香菜")] == ["preference"]
    assert [c.type for c in said("I don't drink at all on Sundays and Mondays")] == ["behavior"]
    assert [c.type for c in said("我从来不喝酒的")] == ["behavior"]


@pytest.mark.parametrize("text, content", [
    # Facts the reader of bench/fresh20 found in no memory.
    ("sorry one more thing, can you give me answers in plain text no bold or headers?",
     ["User prefers answers in plain text no bold or headers"]),
    ("Thanks. Dad's name is Tom btw if you're writing anything.", ["User's dad's name is Tom"]),
    ("my dad's 82", ["User's dad is 82"]),
    ("i pay about 380/mo for health insurance through the marketplace", ["User pays about 380/mo for health insurance through the marketplace"]),
    ("my dad is 82. He lives alone in Clontarf and refuses to move.", ["User's dad is 82", "User's dad lives alone in Clontarf and refuses to move"]),
])
def test_what_fresh_sample_389_missed(text, content):
    assert contents(text) == content


@pytest.mark.parametrize("text, content", [
    # Chinese rules for every answer, said without 以后, that the reader of bench/fresh20 found in no memory.
    ("你说话别太官方 像朋友聊天那样就行 我已经够烦了", ["用户希望回答别太官方，像朋友聊天那样就行"]),
    ("对了 你回答的时候别写那么长", ["用户希望回答的时候别写那么长"]),
    ("对了 别给我推荐基金股票啥的", ["用户希望别推荐基金股票"]),
    ("我眼睛不太好 有白内障", ["用户有白内障"]),
])
def test_chinese_rules_said_without_from_now_on(text, content):
    assert contents(text) == content


def test_a_rule_after_talk_of_someone_else_is_the_users():
    assert contents("孙女给我装了这个，说有什么不懂的可以问你。先说好，回答别太长，分几条说") == ["用户希望回答别太长，分几条说"]


@pytest.mark.parametrize("text, content", [
    # A bare "叫X" is the user's name only after the user speaks of their own name; after a pet
    # brought in with a measure word it is the pet's ("用户叫小蓝" overwrote the user's name).
    ("还有我还有一只虎皮 叫小蓝 跟豆豆不在一个笼子", ["用户还有一只虎皮叫小蓝，跟豆豆不在一个笼子"]),
    ("老大叫乐乐 男孩 名字是乐乐取的", ["用户的老大叫乐乐，男孩"]),
    ("我姓王 叫王小明", ["用户叫王小明"]),
])
def test_a_bare_name_is_the_users_only_when_said_so(text, content):
    got = said(text)
    assert [c.content for c in got] == content
    assert all(c.slot != "name" for c in got if "王小明" not in c.content)


def test_a_shop_named_two_clauses_later_is_still_the_shops_name():
    assert contents("自己开了家小面馆，就在大学后门，叫老陈面馆，主打牛肉面") == ["用户自己开了家小面馆，就在大学后门，叫老陈面馆，主打牛肉面"]


@pytest.mark.parametrize("text, content", [
    # A job said as a bare noun is what the user is, and a lasting fact takes no date from the
    # clause before it (fresh21: "用户程序员（截止 2027-05）", "用户是大三的（截止 2026-09）").
    ("减脂求帮忙 想在明年5月前减到75 程序员 天天坐着", ["用户想在明年5月前减到75（截止 2027-05）", "用户是程序员", "用户天天坐着"]),
    ("希望9月前拿证 开学前 我是大三的", ["用户希望9月前拿证", "用户是大三的"]),
])
def test_a_lasting_fact_takes_no_date_from_the_clause_before(text, content):
    assert contents(text) == content
