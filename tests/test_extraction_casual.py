"""Casual chat that came out garbled: "'s" read as "is" before a participle, chat words
and day names taken for the user's verb, a remark or request left on the end of a fact,
an answer about a pet or a child credited to the user, the user's doing credited to the
pet it is done to, a doctor's advice with the user in front of the doctor, a fragment
whose verb or object the clause before held, and a day whose month the sentence said
just before. Each case failed before its fix."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memctl.conversations import Conversation, Turn, clean
from memctl.extract import Candidate, extract, load_rules

RULES = load_rules()
SEPT = datetime(2026, 9, 10, 10, 0, tzinfo=timezone.utc)


def talk(*messages: str) -> list[tuple[str, str]]:
    """(subject, content) of what a conversation stores; "A:" opens an assistant message."""
    turns = [Turn(f"t{i}", "assistant", m[2:]) if m.startswith("A:") else Turn(f"t{i}", "user", m)
             for i, m in enumerate(messages)]
    conv = Conversation("u", "s", SEPT, turns)
    return [(c.subject, c.content) for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]


def contents(*messages: str) -> list[str]:
    return [content for _, content in talk(*messages)]


@pytest.mark.parametrize("text, content", [
    ("My dad lives with us. He's lived with us since my mom passed in 2023",
     "User's dad has lived with them since the user's mom passed in 2023 (2023)"),
    ("My son is 12, he's never used power tools", "User's son has never used power tools"),
    ("my mom's worked at the hospital for 20 years", "User's mom has worked at the hospital for 20 years"),
    # Not a participle of a perfect: an adjective, an age.
    ("my daughter Ellie is 7, she's obsessed with axolotls", "User's daughter Ellie is obsessed with axolotls"),
    ("my dad's 74, been living with me since last summer",
     "User's dad is 74, been living with the user since last summer (2025-06~2025-08)"),
    ("My sister's married", "User's sister is married"),
])
def test_s_before_a_participle_is_has_and_before_an_adjective_is(text, content):
    assert contents(text)[-1] == content


@pytest.mark.parametrize("text, expected", [
    ("i wfh tues and thurs, office the other days", ["User works from home tues and thurs, office the other days"]),
    ("wfh tues/thurs, in the office the rest of the week",
     ["User works from home tues/thurs, in the office the rest of the week"]),
    ("oncall next week", ["User is on call next week (2026-09-14~2026-09-20)"]),
    # Day names and "every" are no verb of the user's: "User sundayses off", "User everies PR".
    ("sundays off", []),
    ("weeknights 2 hrs, saturdays 5ish", []),
    ("also every PR needs 2 approvals and a linked jira ticket", []),
])
def test_chat_words_and_day_names_are_not_made_the_users_verb(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("messages, expected", [
    # "max." ends a sentence like any other word.
    (("Four days max. I'm an ICU nurse working 12-hour shifts",), ["User is an ICU nurse working 12-hour shifts"]),
    (("my sister Hannah is coming too", "A:Great!",
      "Hannah uses a wheelchair for longer distances btw so can we avoid hiking-heavy stuff like the summit"),
     ["User's sister Hannah uses a wheelchair for longer distances"]),
    (("my daughter Ellie turns 7 soon. She's obsessed with axolotls right now so that's the theme lol",),
     ["User's daughter Ellie turns 7 soon", "User's daughter Ellie is obsessed with axolotls right now"]),
    (("ok last thing, from march im moving to days finally so can you make the plan lighter",),
     ["User is moving to days finally from march (2027-03)"]),
])
def test_a_request_or_remark_after_the_fact_leaves_the_fact(messages, expected):
    assert contents(*messages) == expected


def test_an_answer_about_a_pet_is_the_pets_not_the_users():
    got = talk("我养了只猫", "A:先说下猫的基本情况吧：几岁、长毛短毛、平时吃什么？", "橘猫，叫土豆，公的，3岁，去年绝育了")
    assert ("user", "用户吃橘猫") not in got  # "吃什么" asked of the cat
    assert ("橘猫", "用户的橘猫3岁") in got and ("橘猫", "用户的橘猫去年绝育了（2025）") in got


def test_an_answer_about_a_son_is_not_the_users():
    assert contents("I have a son", "A:Does your son have any allergies?", "peanuts") == ["User has a son"]


def test_an_answer_to_a_question_about_the_user_still_counts_after_talk_of_another():
    got = contents("my mum has dementia", "A:Your council can assess your mum. Where are you based?", "Norwich. I'm an accountant")
    assert "User lives in Norwich" in got


@pytest.mark.parametrize("messages, expected", [
    # The pet is what the user takes; the user does it.
    (("我养了只猫", "A:哈哈，猫的经典操作😂", "下周六带它去打疫苗，家附近的瑞派"),
     [("user", "用户养了只猫"), ("user", "用户下周六带猫去打疫苗，家附近的瑞派（2026-09-19）")]),
    # The mortgage after the wife's pay is the household's.
    (("税后我每月两万二，老婆一万五，每月房贷6800",), [("user", "税后用户每月两万二"), ("user", "用户每月房贷6800")]),
    # A goal for the child is the user's goal, not only a sign of a child.
    (("老婆全职带娃 房贷每月5800 想给孩子存教育金",), [("user", "用户房贷每月5800 想给孩子存教育金")]),
])
def test_chinese_whose_doing_it_is(messages, expected):
    assert talk(*messages) == expected


@pytest.mark.parametrize("text, expected", [
    ("上周体检查出来尿酸偏高，医生让少吃海鲜和喝啤酒",
     ["用户上周体检查出来尿酸偏高（2026-08-31~2026-09-06）", "医生让用户少吃海鲜和喝啤酒（2026-08-31~2026-09-06）"]),
    # Where the user goes and how often of what: the clause before said it.
    ("公司有健身房，我一般午休去，一周三次左右", []),
    # "7号" in the sentence that said "10月1号" is October's, and "回" alone says nothing.
    ("我们从上海出发，10月1号走，7号回", []),
    ("我男朋友在苏州当律师；我在上海做设计", ["用户的男朋友在苏州当律师", "用户在上海做设计"]),
])
def test_chinese_fragments_and_the_doctors_advice(text, expected):
    assert contents(text) == expected


def test_a_day_takes_the_month_the_sentence_just_said():
    from memctl.extract.segment import split_clauses

    assert [c.text for c in split_clauses("10月1号走，7号回")] == ["10月1号走", "10月7号回"]
    assert [c.text for c in split_clauses("誓师大会改到3月2号了，原来是28号")] == ["誓师大会改到3月2号了", "原来是3月28号"]
    assert [c.text for c in split_clauses("每月15号发工资，坐三号线上班")] == ["每月15号发工资", "坐三号线上班"]


def test_a_race_signed_up_for_is_ahead_though_signing_up_is_past():
    assert contents("I signed up for the Berlin Marathon on September 27") == [
        "User signed up for the Berlin Marathon on September 27 (2026-09-27)"]


def test_what_follows_from_the_wifes_fact_is_no_part_of_it():
    assert talk("老婆怀孕了，预产期明年3月，所以甲醛特别在意，最好早点装完散味") == [("老婆", "用户的老婆怀孕了，预产期明年3月（2027-03）")]


@pytest.mark.parametrize("text, expected", [
    ("heyyy i'm a tattoo artist in austin", ["User is a tattoo artist in austin"]),
    ("yo quick q i'm a student pilot", ["User is a student pilot"]),
    ("funny thing is i have celiac", ["User has celiac"]),
    ("i bumped my mileage from 25 to 35 in april oops", ["User bumped their mileage from 25 to 35 in april (2026-04)"]),
    # A word that only ends like one stays whole.
    ("losing my job was tough", ["Losing the user's job was tough"]),
    ("结果我好像对猫过敏", ["用户好像对猫过敏"]),
    ("我乳糖不耐受真麻烦", ["用户乳糖不耐受"]),
])
def test_chat_debris_at_either_end_is_not_the_fact(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, content", [
    ("I have high blood pressure and take lisinopril every morning",
     "User has high blood pressure and takes lisinopril every morning"),
    # An adjective before a word the lexicon does not know is no verb.
    ("I love the dark sky and green scenery", "User loves the dark sky and green scenery"),
])
def test_a_verb_joined_by_and_before_a_name_agrees(text, content):
    assert contents(text) == [content]


def test_a_day_range_is_a_schedule_and_the_first_time_in_years_looks_back():
    got = contents("From March I'll be on Monday to Friday, so I'll have weekends free for the first time in six years.")
    assert got[0] == "User will be on Monday to Friday from march (2027-03)"
    assert all("2032" not in c for c in got)


@pytest.mark.parametrize("messages, expected", [
    (("my daughter Isla takes 6 subjects", "A:Nice.", "no wait she dropped chemistry last week so 5"),
     ["User's daughter Isla dropped chemistry last week (2026-08-31~2026-09-06)"]),
    (("my girlfriend is japanese", "A:Nice.", "her name's yuki btw so would i say yuki-san"),
     ["User's girlfriend's name is yuki"]),
])
def test_what_is_left_on_the_end_of_a_correction_or_a_name(messages, expected):
    assert contents(*messages)[-len(expected):] == expected


def test_a_child_just_named_and_then_cared_for_is_no_new_sign_of_a_child():
    assert contents("我女儿才3岁 晚上想陪陪她") == ["用户的女儿才3岁"]
    assert contents("我每天接送孩子") == ["用户每天接送孩子"]  # (the habit says that there is a child)
    assert contents("刚接孩子回来") == ["用户有孩子"]


@pytest.mark.parametrize("text, expected", [
    ("For anything health-related, cite your sources. i don't trust answers without them",
     ["User prefers: for anything health-related, cite the assistant's sources"]),
    ("always metric units pls, i'm not in the US", ["User prefers: always metric units"]),
    ("even if i write in french, answer in english pls. im just practicing",
     ["User prefers: even if the user writes in french, answer in english"]),
    ("When I ask for code just give me the code first and explain after, always",
     ["User prefers: when the user asks for code just give the user the code first and explain after"]),
    ("讲东西的时候先举例子再讲原理，我比较好懂", ["用户希望讲东西的时候先举例子再讲原理"]),
    ("别用emoji哈，我主要拿来写工作邮件", ["用户希望别用emoji"]),
])
def test_standing_rules_said_casually(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("the cat's name is pickle btw, shes 12 and has kidney issues",
     ["User's cat's name is pickle", "User's cat is 12 and has kidney issues"]),
    ("Mum had her hip replaced on the 2nd", ["User's mum had her hip replaced on the 2nd (2026-09-02)"]),
    ("doc says im prediabetic now so i gotta cut sugar", ["User is prediabetic now"]),
    ("we have twins, 7 months old, so sleep is a myth", ["User has twins, 7 months old"]),
    ("im in utc+8 so keep that in mind for meeting times", ["User is in utc+8"]),
    ("sorry i meant my daughter is 9 not 8", ["User's daughter is 9 not 8"]),
    ("fyi we're on Linear not Jira", ["User's team is on Linear not Jira"]),
    ("we're a 3 person design studio, clients are mostly nonprofits",
     ["User works at a 3 person design studio, clients are mostly nonprofits"]),
    ("I lead the data team", ["User leads the data team"]),
    ("knee surgery is booked for the 22nd", ["User's knee surgery is booked for the 22nd (2026-09-22)"]),
    ("final round interview with Stripe on Monday at 10am", ["User has a final round interview with Stripe on Monday at 10am (2026-09-14)"]),
    ("下周一我的淘宝店正式上线 卖手工皂", ["用户的淘宝店下周一正式上线，卖手工皂（2026-09-14）"]),
])
def test_facts_typed_without_i_or_my(text, expected):
    assert contents(text) == expected


def test_an_employee_introduced_is_no_part_of_the_users_fact():
    assert contents("刚升了主管 在厦门一家外贸公司 管6个人 有个员工小王老迟到 一周迟到三次") == ["用户刚升了主管，在厦门一家外贸公司，管6个人"]


def test_seeing_ones_goals_is_no_visit():
    assert contents("Seeing my goals written down on paper really helps keep me motivated") == [
        "Seeing the user's goals written down on paper really helps keep them motivated"]


@pytest.mark.parametrize("text, expected", [
    ("Not into horror at all, so leave those out of any film recs", ["User is not into horror at all"]),
    ("no dairy for me, it wrecks my stomach. oat milk is fine", ["User avoids dairy, it wrecks their stomach"]),
    ("trying to get down to one coffee a day, keep me honest", ["User is trying to get down to one coffee a day"]),
    ("I'd love to get conversational in Italian someday", ["User would love to get conversational in Italian someday"]),
    ("languages i speak: english, tagalog, bit of spanish", ["User speaks english, tagalog, bit of spanish"]),
    ("dog = Pepper, 3yo border collie", ["User's dog's name is Pepper, 3yo border collie"]),
    ("daughter's school play is friday the 17th", ["User's daughter's school play is Friday the 17th (2026-09-17)"]),
    ("refunds over $500 need sign-off from my manager Priya", ["Refunds over $500 need sign-off from the user's manager Priya"]),
    ("our ward charts in epic, handoffs at 7am and 7pm", ["User's ward charts in epic, handoffs at 7am and 7pm"]),
    ("双十一那天我的网店卖了一千多单，创历史新高了", ["双十一那天用户的网店卖了一千多单，创历史新高了"]),
    ("记账用的随手记，每天睡前记一下", ["用户记账用的随手记"]),
    ("客户退款超过500要找我们主管小林批", ["用户的客户退款超过500要找用户的主管小林批"]),
    ("项目是Vue3 + Vite，后端用Go", ["用户的项目是Vue3 + Vite", "用户的后端用Go"]),
])
def test_facts_typed_as_notes(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text", [
    "dont tell anyone but im quitting next week, its a secret",
    "别告诉别人 我准备辞职了",
    "跟你说个秘密，我偷偷喜欢我们组一个同事，以后千万别提",
])
def test_a_secret_the_user_shares_is_kept_nowhere(text):
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", text)])
    ex = extract(conv, clean(conv), rules=RULES)
    assert [i for i in ex.items if isinstance(i, Candidate)] == []
    assert any(d.reason == "asked not to keep" for d in ex.dropped)


@pytest.mark.parametrize("text, expected", [
    ("my uncle apparently won a pub quiz last night lol", []),
    ("my friend just texted me 'i quit my job' lmao", []),
    ("thx for the help w the resume yesterday", []),
    ("ok but like, why though", []),
    ("楼上昨晚装修吵了一宿", []),
    ("Apparently I'm allergic to cats", ["User is allergic to cats"]),
    ("my company's fiscal year starts in april", ["User's company's fiscal year starts in april"]),
    ("糖尿病人 推荐零食的话注意下糖分", ["用户是糖尿病人"]),
])
def test_remarks_about_others_and_facts_said_bare(text, expected):
    assert contents(text) == expected


def test_the_31st_in_a_month_of_30_days_is_the_next_month_that_has_one():
    when = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
    conv = Conversation("u", "s", when, [Turn("t1", "user", "my lease ends on the 31st")])
    got = [c.content for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]
    assert got == ["User's lease ends on the 31st (2026-12-31)"]


@pytest.mark.parametrize("text, expected", [
    ("planning to repaint the nursery the weekend of the 19th, what colour goes with oak floors?",
     ["User is planning to repaint the nursery the weekend of the 19th (2026-09-19)"]),
    ("my parents are visiting from march 10 to 17, ideas for a day trip?",
     ["User's parents are visiting from march 10 to 17 (2027-03-10)"]),
    ("we adopted a rescue greyhound last weekend, his name is Biscuit",
     ["User and others adopted a rescue greyhound last weekend, his name is Biscuit (2026-09-05~2026-09-06)"]),
    ("I'm thinking of ordering myself some similar ones too, what do you think?", []),
])
def test_a_question_after_the_fact_and_a_pet_that_is_he(text, expected):
    assert contents(text) == expected


def test_a_turn_about_him_alone_is_not_the_users():
    got = contents("我爸有糖尿病，平时爱吃面食", "A:面食升糖比较快", "上周复查了 医生给加了个格列美脲 早上吃一片 还说他肌酐有点高")
    assert got == ["用户的爸爸有糖尿病", "用户的爸爸平时爱吃面食"]
    # (Where 她 is whom the user takes along, the plan is the user's, not hers; with no one named
    # before it, whom the user takes along is not said, and the plan is not kept.)
    assert contents("A:好的。", "这周末带她去金鸡湖边溜溜") == []
    assert contents("A:好的。", "这周末我带她去金鸡湖边溜溜") == []


@pytest.mark.parametrize("text, expected", [
    ("我周二周四晚上要去做家教", ["用户周二周四晚上要去做家教"]),  # every week, no one date
    ("我每天坐11号线上班", ["用户每天坐11号线上班"]),  # a subway line, no day of the month
    ("我在长沙五一广场附近开了家奶茶店", ["用户在长沙五一广场附近开了家奶茶店"]),  # a square, no holiday
    ("五一我们去长沙玩", ["用户五一去长沙玩（2027-05-01~2027-05-05）"]),
    ("我每天晚上在小区跳广场舞，七点到八点半，吃完饭多久能跳", ["用户每天晚上在小区跳广场舞，七点到八点半"]),
    ("我一般8点才起，别给我排6点的", ["用户一般8点才起"]),
    ("我老伴儿他血糖高，二型的", ["用户的老伴儿血糖高，二型的"]),
    ("以后说简单点，少写点", ["用户希望以后说简单点，少写点"]),
])
def test_chinese_schedules_places_and_asides(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I climb at Mesa Rim like 3x a week to stay sane, any finger exercises for crimps that won't wreck my tendons?",
     ["User climbs at Mesa Rim like 3x a week to stay sane"]),
    ("I switched to Capture One last month, forgot", ["User switched to Capture One last month (2026-08)"]),
    ("my greyhound is 4 so def not a puppy", ["User's greyhound is 4"]),
    ("please don't suggest alcohol in general going forward, thanks",
     ["User prefers: don't suggest alcohol in general going forward"]),
    ("I wear hearing aids and struggle in noisy restaurants", ["User wears hearing aids and struggles in noisy restaurants"]),
    ("I like rock and roll in the car", ["User likes rock and roll in the car"]),
    ("I'm a PhD student at scripps)", ["User is a PhD student at scripps"]),
    ("i'm coeliac myself, funnily enough", ["User is coeliac themselves"]),
])
def test_english_asides_questions_and_agreement(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, typed", [
    ("我平时喜欢拍照", ("preference", "用户平时喜欢拍照")),
    ("我之前一直练瑜伽", ("behavior", "用户之前一直练瑜伽")),
])
def test_chinese_likes_are_preferences_and_old_habits_are_habits(text, typed):
    conv = Conversation("u", "s", SEPT, [Turn("t1", "user", text)])
    got = [(c.type, c.content) for c in extract(conv, clean(conv), rules=RULES).items if isinstance(c, Candidate)]
    assert got == [typed]


def test_i_love_you_is_no_preference():
    assert contents("爱你") == []


@pytest.mark.parametrize("text, expected", [
    ("I signed up for the Phoenix half marathon in... wait no", []),  # taken back as typed
    ("我每天早上五点半去我们沈阳北陵公园打太极", ["用户每天早上五点半去沈阳北陵公园打太极"]),
    ("我妈每晚睡前打胰岛素", ["用户的妈妈每晚睡前打胰岛素"]),
    ("再加一句：这学期我的班开始每天早读15分钟", ["这学期用户的班开始每天早读15分钟"]),
    ("我一个人去", []),
    ("my sister usually does", []),
    ("儿子迷恐龙 六岁生日送啥好", ["用户的儿子迷恐龙"]),
])
def test_retractions_fragments_and_names_that_are_verbs(text, expected):
    assert contents(text) == expected


def test_a_goal_or_a_recent_interest_takes_no_date_from_the_clause_before():
    assert contents("这周末去钓鱼 我目标减10公斤")[-1] == "用户目标减10公斤"


@pytest.mark.parametrize("text, expected", [
    ("我想让学生做自我介绍", ["用户想让学生做自我介绍"]),  # 自我 is a word, not the user
    ("我们是一家德资汽车零部件公司", ["用户的公司是一家德资汽车零部件公司"]),
    ("i make like $980 a week after tax", ["User makes about $980 a week after tax"]),
    ("Welsh is my first language anyway", ["Welsh is the user's first language"]),
])
def test_words_with_wo_in_them_a_company_said_as_we_and_fillers_around_amounts(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    # A time word that means nothing without the day it was said gets that day's date ...
    ("我怀孕四个月了，预产期是明年1月中", ["用户怀孕四个月了，预产期是明年1月中（2027-01）"]),
    ("My sister moved to Seattle last summer for her husband's job",
     ["User's sister moved to Seattle last summer for her husband's job (2025-06~2025-08)"]),
    # ... but not a time that comes round again, a weekday said alone, or two times at once.
    ("我每年四五月最严重", ["用户每年四五月最严重"]),
    ("Tues and thurs I go to a coworking space for like 5 hrs", ["Tues and thurs the user goes to a coworking space for like 5 hrs"]),
    ("keto since january, down 8kg", ["User is keto since january, down 8kg"]),  # which january: the finder only guesses
    ("my son Eli turns 6 on the 27th", ["User's son Eli turns 6 on the 27th (2026-09-27)"]),  # a day said in full
    ("我闺女今年高二，明年高考", ["用户的闺女今年高二，明年高考"]),
    ("现在正是采摘季，从11月一直到明年2月", ["用户从11月一直到明年2月"]),
])
def test_a_relative_time_kept_in_a_memory_is_dated(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("俺闺女在青岛上大学", ["用户的闺女在青岛上大学"]),  # 俺 is 我
    ("中 俺打算这个周六晚上七点第一次开播", ["用户打算这个周六晚上七点第一次开播（2026-09-12）"]),
    ("I drive long haul out of Cheyenne, mostly I-80 Salt Lake to Omaha",
     ["User drives long haul out of Cheyenne, mostly I-80 Salt Lake to Omaha"]),  # not "they-80"
    ("你给改改 说俺家种了十几年", []),  # what the assistant is to write
    ("不吃香菜啊 提前说", ["用户不吃香菜"]),
    ("就是血压有点高", ["用户血压有点高"]),
    ("就是说我不太会做饭", []),
    # A rule for the assistant's replies, not what the user replies.
    ("对了以后别给我回那么长，我都是哄完娃躺床上用手机看的", ["用户希望以后别回复那么长"]),
    ("帮我写个JD。回复尽量用要点列出来，别大段文字", ["用户希望回复尽量用要点列出来，别大段文字"]),
    # A number is no verb: not "User fours 10-hour nights a week", "User threes flatmates".
    ("I've just gone onto a permanent night roster — four 10-hour nights a week",
     ["User has just gone onto a permanent night roster"]),
    ("three flatmates, one plays drums", []),
    # The car named before "it"; what a pet is, however it feels.
    ("i drive a 2012 honda fit w 180k miles on it", ["User drives a 2012 honda fit w 180k miles on it"]),
    ("I have a 2019 budget to finish", []),
    ("our dog pepper is a rescue greyhound, terrified of stairs", ["User's dog pepper is a rescue greyhound, terrified of stairs"]),
    ("my dog is a nervous wreck today", []),
])
def test_dialect_pronouns_interstates_fillers_reply_rules_numbers_and_pets(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    # What still is takes no date from the clause before; a time is no label ("3:30").
    ("Oh wait, I said Hamilton — we actually moved to Burlington in March, I still work in Hamilton though.",
     ["User and others moved to Burlington in March (2026-03)", "User still works in Hamilton"]),
    ("lessons are mon-thu 3:30-7pm, fridays are for my own practice.",
     ["Lessons are mon-thu 3:30-7pm, Fridays are for the user's own practice"]),
    # He, after a time, is the one just named; a feeling after the fact is no part of it.
    ("男朋友在西安读博 异地两年了 国庆他会回来", ["用户的男朋友在西安读博，异地两年了", "用户的男朋友国庆会回来（2026-10-01~2026-10-07）"]),
    ("今年7月考N2 时间好紧", ["用户今年7月考N2（2026-07）"]),
    ("我在沈阳开出租开了十五年了，现在也跑滴滴，白天出租晚上滴滴，贼累", ["用户在沈阳开出租开了十五年了，现在也跑滴滴，白天出租晚上滴滴"]),
    ("以后写英文文案别用太多感叹号 美国客户看着像骗子", ["用户希望以后写英文文案别用太多感叹号，美国客户看着像骗子"]),
    # Family said bare after a time word, and the whole family, are the user's.
    ("我下个月1号就要回去上班了 在杭州一家银行做柜员 到时候婆婆从绍兴过来帮忙带",
     ["用户下个月1号就要回去上班了（2026-10-01）", "用户在杭州一家银行做柜员", "用户的婆婆从绍兴过来帮忙带（2026-10-01）"]),
    ("奶奶11月12号过八十大寿，全家要回老家", ["用户的奶奶11月12号过八十大寿（2026-11-12）"]),
    # "the dog's", "my dog's" before a noun are possessives, not "the dog is".
    ("the dog's vet checkup is on the 12th at 4pm, can you add it to my list", ["User's dog's vet checkup is on the 12th at 4pm (2026-09-12)"]),
    ("my dog's vet checkup is on the 12th at 4pm", ["User's dog's vet checkup is on the 12th at 4pm (2026-09-12)"]),
    ("my dog's name's Rex", ["User's dog's name is Rex"]),
])
def test_still_a_time_not_a_label_he_after_a_time_family_said_bare_and_possessives(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("text, expected", [
    # Facts typed as notes or fragments, found by a held-out set read after it was measured.
    ("Vegetarian, but eggs are fine.", ["User is vegetarian"]),
    ("started at Deloitte in march as a tax associate", ["User started at Deloitte in march as a tax associate (2026-03)"]),
    ("allergies: penicillin, shellfish", ["User's allergies are penicillin, shellfish"]),
    ("at the restaurant we use Toast for POS and every shift has to log fridge temps twice",
     ["At the user's restaurant, they use Toast for POS and every shift has to log fridge temps twice"]),
    ("got married june 2015 in lisbon, best day ever", ["User got married june 2015 in lisbon (2015-06)"]),
    ("wonderful, printer jammed again, best day ever", []),
    ("i take the 7:40 ferry every weekday, so mornings are tight", ["User takes the 7:40 ferry every weekday"]),
    ("name's Marcus btw", ["User's name is Marcus"]),
    ("moving to Leeds end of August for the new job 🎉", ["User is moving to Leeds end of August for the new job (2027-08)"]),
    ("wait no, my MRI is on the 14th not the 4th", ["User's MRI is on the 14th not the 4th (2026-09-14)"]),
    ("my rent is on the 1st", []),
    ("Ava's school play is dec 12 at 6pm", ["Ava's school play is dec 12 at 6pm (2026-12-12)"]),
    ("can't stand spicy food, even mild salsa is too much for me", ["User can't stand spicy food, even mild salsa is too much for them"]),
    ("vegetarian, have been for like 8 years. so pescatarian now i guess", ["User is vegetarian, has been for like 8 years", "User is pescatarian now"]),
    ("我要招三个店员", []),  # 店员 is whom the user hires, not what the user is ("用户是要招三个店员")
    ("我想当幼师", []), ("我不是律师", []),  # a wish or a denial is no job
    ("My husband is vegan and so is my wife, any tips?", ["User's husband is vegan and so is the user's wife"]),
    ("in the end we went with Postgres", []),  # no workplace: "In the user's end"
    ("My office is on the 5th floor", []), ("My son is on the 3rd floor of the dorm", []),  # a floor, no date
    ("I'm gonna give sushi a try tonight", []),  # tonight's try, no goal
    ("Tonight's game is on the 5th", []),  # no one named Tonight
    ("IDK what to do about my job", ["User doesn't know what to do about their job"]),
    ("diagnosis: ADHD", ["User's diagnosis is ADHD"]),
    ("回复别人消息我一般很慢", ["回复别人消息用户一般很慢"]),  # the user's replies to others, no rule for the assistant
    ("我学的很快", []), ("住过两次", []), ("有一天喝了三瓶", []),
    ("我住成都，夏天太热了它掉毛特别厉害", ["用户住成都"]),  # it is the pet, no part of where the user lives
    # An ordinal is no day unless it is said as one; an attempt meant is a goal; "permanently" is no lasting change.
    ("my favorite was when we were down 10 in the 4th", ["User's favorite was when they were down 10 in the 4th"]),
    ("Lost my job as a banker yesterday, so I'm gonna take a shot at starting my own business.",
     ["User lost their job as a banker yesterday (2026-09-09)", "User is going to take a shot at starting their own business"]),
    ("Here are my hands after a day in the garage - permanently stained with grease.", []),
    ("I don't like bowling itself, to be honest", ["User doesn't like bowling itself"]),
    ("I still have cats, Luna is sitting on the left.", ["User still has cats"]),  # the photo shared, described
    # "RN" in capitals, or after a hyphen, is no chat spelling of "right now".
    ("I'm taking the NCLEX-RN on march 14", ["User is taking the NCLEX-RN on march 14 (2027-03-14)"]),
    ("i'm diabetic so what snacks r ok for a 6 hr road trip?", ["User is diabetic"]),
    ("本人左撇子，推荐剪刀啥的记得要左手款", ["用户是左撇子"]),
    ("29，幼师，一个娃，住顺义", ["用户是幼师，一个娃"]),
    ("在自学韩语，目标今年年底前过TOPIK 4级", ["用户在自学韩语", "用户目标今年年底前过TOPIK 4级（截止 2026）"]),
    ("九月份去英国读研，曼大", ["用户九月份去英国读研，曼大（2026-09）"]),
    ("明年一月开始报个陶艺班", ["用户明年一月开始报个陶艺班（2027-01）"]),
    ("12年武大毕业，学的新闻", ["用户12年武大毕业", "用户学的新闻"]),
    ("一天差不多四杯美式，不加糖", ["用户一天差不多四杯美式，不加糖"]),
    ("榴莲是我的命🥰 有啥榴莲甜品推荐", ["榴莲是用户的命"]),
    ("别给我列太多选项，最多三个就行", ["用户希望别列太多选项，最多三个就行"]),
    # After "说错了", a clause that says "A, not B" is the fact set right; a bare number is not.
    ("不好意思说错了，飞大阪是12号不是21号", ["用户飞大阪是12号不是21号（2026-09-12）"]),
    ("哦还有 房间数说错了 上个月刚把后院那两间弄好 现在是8间", []),
])
def test_facts_typed_as_notes_and_fragments(text, expected):
    assert contents(text) == expected


@pytest.mark.parametrize("messages, expected", [
    # Feelings and vague aims that readers judge no fact to keep.
    (("Collaborating with others and learning from them keeps me motivated.",), []),
    (("Writing lyrics boosts my motivation to grow!",), []),
    (("I love the feeling of being healthy and strong.",), []),
    (("I enjoy what I do.",), []),
    (("I'm planning to get out in nature again next month.",), []),
    (("I'm being extra careful with my health lately.",), []),
    (("A:How do the dogs like the beach?", "they always go home with a smile and tired"), []),
    (("I take my dogs to the beach every Sunday, they always go home with a smile and tired.",),
     ["User takes their dogs to the beach every Sunday, they always go home with a smile and tired"]),
    # A dream of the night, a vague event, a day's chat or sessions: how those days went.
    (("I had this amazing dream last night where I was soaring over skyscrapers.",), []),
    (("Last week I went to a cool event with the aim to support each other.",), []),
    (("Last week I visited a place that holds a lot of memories for me.",), []),
    (("Last week I worked with someone from the group on a project.",), []),
    (("Last week I had a few studio sessions.",), []),
    (("I told Anna the story of my life last Friday.",), []),
    (("Oh and I got this cool video card last week.",), []),
    # Someone else's old routine with the user: a memory of them, not a fact to use.
    (("My mum was my biggest fan. She'd often come to my classes with me.",), ["User's mum was the user's biggest fan"]),
    # The calendar and praise of a dear one's cooking are not the user's facts; a nod to a show
    # the other speaker named, seen in part, neither.
    (("清明节的时候会放假，我会和姐姐一起回来",), ["用户会和姐姐一起回来（2027-04-05~2027-04-07）"]),
    (("我老婆做的红烧肉超级好吃",), []),
    (("A:你看过武林外传吗？", "武林外传我也看过一些"), []),
    # Comfort and coping, some games once, how a course went.
    (("Pepper loves lounging on the couch, Pixie always curls up in her bed, Precious has her chair",), []),
    (("I'm trying to channel my grief by spending more time with family",), []),
    (("so I've been spending time in the garden to find some comfort",), []),
    (("I used to play some video games",), []),
    (("I learned a lot about problem-solving, patience, and perseverance",), []),
])
def test_feelings_vague_events_and_the_calendar_are_no_facts(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # What stays: a practical effect, a named place, a named game, a whole show watched.
    (("Fixing cars really calms me down and gives me a real sense of achievement.",),
     ["Fixing cars really calms the user down and gives them a real sense of achievement"]),
    (("I'm planning to get out in nature to hike Yosemite next month.",),
     ["User is planning to get out in nature to hike Yosemite next month (2026-10)"]),
    (("I met my new neighbor Anna yesterday.",), ["User met their new neighbor Anna yesterday (2026-09-09)"]),
    (("武林外传我也看过",), ["用户看过武林外传"]),
    (("I'd often go running at dawn.",), ["User would often go running at dawn"]),
    (("I used to play some tennis in college",), ["User used to play some tennis in college"]),
    (("My dog loves the couch",), ["User's dog loves the couch"]),
])
def test_what_a_reader_keeps_beside_them(messages, expected):
    assert contents(*messages) == expected


def test_a_number_in_a_name_is_no_year():
    # "Cyberpunk 2077" is a game, not a year: the day it was tried is what dates it.
    assert contents("I'm playing Cyberpunk 2077 these days.") == ["User is playing Cyberpunk 2077 these days"]
    assert contents("I moved to Lisbon in 2020.") == ["User moved to Lisbon in 2020"]
    assert contents("Back in 2019 I ran a marathon.") == ["User ran a marathon back in 2019 (2019)"]


@pytest.mark.parametrize("messages, expected", [
    # Facts told by their form, with no word of a list: a trade, a business, a skill kept up for
    # years, a pet named, a child's week, how the user learns, a note of a diet or of pets.
    (("i work closing shifts as a line cook at a ramen place",), ["User works closing shifts as a line cook at a ramen place"]),
    (("I co-own a bakery in Porto with my cousin Marco.",), ["User co-owns a bakery in Porto with their cousin Marco"]),
    (("I run a filipino food cart in portland with my partner Marco, need help with a menu board",),
     ["User runs a filipino food cart in portland with their partner Marco"]),
    (("I've played cello in a community orchestra for about ten years.",),
     ["User has played cello in a community orchestra for about ten years"]),
    (("biscuit is my dog btw, 4yo beagle",), ["Biscuit is the user's dog, 4yo beagle"]),
    (("my kid emma (9) has swim lessons tues + thurs after school",),
     ["User's kid Emma (9) has swim lessons tues + thurs after school"]),
    (("I learn best from analogies, not formulas, so explain things that way.",), ["User learns best from analogies, not formulas"]),
    (("diet: no pork, no shellfish. keep that in mind for recipes pls",), ["User's diet is no pork, no shellfish"]),
    (("pets: 2 rabbits, Pepper & Salt",), ["User's pets are 2 rabbits, Pepper & Salt"]),
    (("我是自由插画师，主要接童书的稿子",), ["用户是自由插画师，主要接童书的稿子"]),
    (("我在大理远程办公，主要给海外客户做网站。",), ["用户在大理远程办公，主要给海外客户做网站"]),
    (("我家是做水果批发的，我现在帮家里管账。",), ["用户家是做水果批发的"]),
    (("我奶奶在河南老家，一个人住",), ["用户的奶奶在河南老家，一个人住"]),
    (("我们家豆豆是只十二岁的老泰迪，心脏不太好",), ["用户家的豆豆是只十二岁的老泰迪，心脏不太好"]),
    (("我有慢性鼻炎，换季的时候特别容易发作。",), ["用户有慢性鼻炎，换季的时候特别容易发作"]),
    (("我目前和两个朋友合租在上海徐汇区。",), ["用户目前和两个朋友合租在上海徐汇区"]),
    (("我通勤都骑共享单车，单程二十分钟左右",), ["用户通勤都骑共享单车，单程二十分钟左右"]),
    (("我女儿明年6月高考",), ["用户的女儿明年6月高考（2027-06）"]),
    (("今年的flag：读完24本书📚",), ["用户今年的flag：读完24本书（2026）"]),
    # "一起玩" takes what the clause before played.
    (("好啊，我也喜欢打游戏，我在宿舍的时候经常跟舍友一起玩",), ["用户喜欢打游戏", "用户在宿舍的时候经常跟舍友一起玩游戏"]),
])
def test_facts_told_by_their_form(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Not by the same forms: "we" unnamed, a past stretch that a date tells, a pet's kind said
    # after its name (one memory, as before), "一起玩" with nothing played before it.
    (("We've been together for three years",), []),
    (("我家狗叫豆豆，是只柯基，三岁了",), ["用户的狗叫豆豆，是只柯基", "用户的狗三岁了"]),
    (("周末经常跟同事一起玩",), []),
    (("I've been a bit tired for a few days",), []),
])
def test_what_those_forms_leave_alone(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # "this September" said in September's year is this year's, past or ahead; a month or a
    # weekday after "this" points nowhere else.
    (("My daughter Amara started secondary school this September.",),
     ["User's daughter Amara started secondary school this September (2026-09)"]),
    (("I'm hauling a load from Memphis to Denver this Saturday",),
     ["User is hauling a load from Memphis to Denver this Saturday (2026-09-12)"]),
    # The user's own, typed without "my".
    (("mum was diagnosed with type 2 diabetes in march",), ["User's mum was diagnosed with type 2 diabetes in march"]),
    (("note: mom's bday is july 9",), ["User's mom's birthday is july 9 (2027-07-09)"]),
    (("hamster's name is Pretzel btw, she's 1",), ["User's hamster's name is Pretzel", "User's hamster is 1"]),
    (("Grandma calls us every sunday at noon like clockwork",),
     ["User's grandma calls them every Sunday at noon like clockwork"]),
    (("Dog parks are great",), []),
    # A caption asked for is this answer's, not a fact.
    (("need an instagram caption for my new cardamom buns, launching this saturday",), []),
])
def test_this_month_a_bare_relation_and_a_caption_asked_for(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Facts told by their form (a later held-out set): sober, faith, years in a trade, one's own
    # machines, a rule for every answer of a kind, a relative's retirement year, an anniversary.
    (("i'm in recovery, 3 yrs sober, so please never suggest wine pairings",),
     ["User is in recovery, 3 years sober", "User prefers: never suggest wine pairings"]),
    (("i'm muslim so no pork or alcohol in any recipes pls",), ["User is muslim"]),
    (("write me a cover letter for this job - I've got 8 yrs in supply chain logistics, currently at Maersk",),
     ["User has 8 years in supply chain logistics, currently at Maersk"]),
    (("my home server runs proxmox with a pihole and a jellyfin container",),
     ["User's home server runs proxmox with a pihole and a jellyfin container"]),
    (("写代码的时候给我用 Python 3.11，别用太老的写法",), ["用户希望写代码的时候用 Python 3.11"]),
    (("跟我讲法律问题的时候请用大白话，别堆法条。",), ["用户希望讲法律问题的时候用大白话，别堆法条"]),
    (("我用的 ThinkPad X1 + Arch Linux，别给我 Windows 的教程",), ["用户用的 ThinkPad X1 + Arch Linux"]),
    (("我爸明年退休，打算回湖南老家住",), ["用户的爸爸明年退休，打算回湖南老家住（2027）"]),
    (("下个月12号是我和老公结婚五周年",), ["下个月12号是用户和老公结婚五周年（2026-10-12）"]),
    (("我是回族，吃清真，推荐餐厅的时候注意一下",), ["用户是回族", "用户吃清真"]),
])
def test_more_facts_told_by_their_form(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # What a review found those forms and this stop's drops must leave alone.
    (("I'm starting a new job this January.",), ["User is starting a new job this January (2027-01)"]),
    (("I think this may be my favourite song ever.",), []),
    (("Dog is my favorite animal.",), ["Dog is the user's favorite animal"]),
    (("Dad's Army is my favourite sitcom.",), ["Dad's Army is the user's favourite sitcom"]),
    (("Born 1990 in Ohio, moved to Texas as a kid.",), ["User born 1990 in Ohio, moved to Texas as a kid (1990)"]),
    (("I moved back home after living abroad for six years.",), ["User moved back home after living abroad for six years"]),
    (("I run a 5k every morning before work.",), ["User runs a 5k every morning before work"]),
    (("I worked on the launch as a team with my sister.",), []),
    (("I go to church every Sunday to find peace.",), ["User goes to church every Sunday to find peace"]),
    (("I learned a lot and passed the bar exam.",), ["User learned a lot and passed the bar exam"]),
    (("I try to get out in nature every weekend.",), ["User tries to get out in nature every weekend"]),
    (("I used to play some semi-pro baseball.",), ["User used to play some semi-pro baseball"]),
    (("My husband would always rather stay home than go out.",), ["User's husband would always rather stay home than go out"]),
    (("My son has dyslexia, and needs help with reading.",), ["User's son has dyslexia, needs help with reading"]),
    (("我妈做的饺子特别好吃，每年过年都包",), ["用户的妈妈每年过年都包"]),
    (("我是卖家",), []),
    (("我在家里教孩子写作业",), []),
    (("我姐在外面跑步",), []),
    (("我有点发炎",), []),
    (("我不打篮球，平时就跟孩子一起玩",), []),
    (("我爸妈那边吃辣没问题",), ["用户的爸妈那边吃辣没问题"]),
])
def test_what_the_review_found_those_forms_must_leave(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Forms from held-out set 28 (read after it was measured): a note label typed with a capital,
    # a time zone by name, a job changed, home schooling, colour weakness, a course being read, a
    # band, a food that will not do, a posting abroad with its date, a team's sprint length, a
    # rule for every explanation of a kind.
    (("Allergies: shellfish and tree nuts.",), ["User's allergies are shellfish and tree nuts"]),
    (("i'm on pacific time so when i say morning that's PT",), ["User is on pacific time so when they say morning that's PT"]),
    (("update: left Acme, started at Shopify this week",), ["User left Acme, started at Shopify this week (2026-09-07~2026-09-13)"]),
    (("We homeschool our two kids, who are 8 and 11.",), ["User and their family homeschool their two kids, who are 8 and 11"]),
    (("我有轻度色弱，做图表的时候别只靠红绿来区分。",), ["用户有轻度色弱", "用户做图表的时候别只靠红绿来区分"]),
    (("在读护理大专，明年6月毕业",), ["用户在读护理大专，明年6月毕业（2027-06）"]),
    (("我在乐队弹贝斯，一个月演两三场livehouse",), ["用户在乐队弹贝斯，一个月演两三场livehouse"]),
    (("香菜绝对不行，一点都不要放",), ["用户香菜绝对不行，一点都不要放"]),
    (("1月6号开始外派新加坡三个月",), ["用户1月6号开始外派新加坡三个月（2027-01-06）"]),
    (("我们两周一个迭代，周四晚上发版。",), ["用户团队两周一个迭代，周四晚上发版"]),
    (("讲代码的时候先贴例子再解释，不然我看不进去",), ["用户希望讲代码的时候先贴例子再解释"]),
    (("我弟在读研，学计算机的",), ["用户的弟弟在读研", "用户的弟弟学计算机的"]),
    # ... and not: a continuation of a team's rule stays with it; an unnamed "we" flying is no fact.
    (("我们公司规定合并代码前必须两个人 review，周五下午不发版",), ["用户的公司规定合并代码前必须两个人 review，周五下午不发版"]),
    (("We fly to Lisbon on June 3rd and come back on the 10th.",), []),
])
def test_forms_of_a_later_held_out_set(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Forms from held-out set 29 (read after it was measured): volunteering and every other week,
    # growing one's own food, one's car, an appointment with its date, a drug taken for good, a
    # bare job with its qualifier, a child's age set right, a team one is a fan of, the car one
    # drives now, a company's rule.
    (("i volunteer at the food bank every other sat morning",), ["User volunteers at the food bank every other sat morning"]),
    (("I grow tomatoes, basil and peppers in raised beds on my balcony.",),
     ["User grows tomatoes, basil and peppers in raised beds on their balcony"]),
    (("my car's a 2014 honda fit w like 180k miles on it lol",), ["User's car is a 2014 honda fit w like 180k miles on it"]),
    (("passport renewal appt at the post office on march 9",),
     ["User has a passport renewal appt at the post office on march 9 (2027-03-09)"]),
    (("I'm on warfarin, so flag any foods that mess with vitamin K.",), ["User is on warfarin"]),
    (("每隔一个周六去社区养老院做志愿者。",), ["用户每隔一个周六去社区养老院做志愿者"]),
    (("本人初中数学老师，带初二两个班。",), ["用户是初中数学老师，带初二两个班"]),
    (("自由插画师，主要画儿童绘本",), ["用户是自由插画师，主要画儿童绘本"]),
    (("更正一下，我儿子是9岁不是8岁。",), ["用户的儿子是9岁不是8岁"]),
    (("湖人死忠粉，从科比时代开始的💜💛",), ["用户是湖人死忠粉，从科比时代开始的"]),
    (("我在吃华法林，饮食上有冲突的你帮我盯着点",), ["用户在吃华法林"]),
    # ... and not: thanks to a teacher; an appointment moved keeps its own verb.
    (("谢谢老师",), []),
    (("my physio appointment at the clinic was moved from the 18th to the 25th",),
     ["User's physio appointment at the clinic was moved from the 18th to the 25th (2026-09-25)"]),
])
def test_forms_of_the_last_held_out_set(messages, expected):
    assert contents(*messages) == expected


def test_a_year_count_no_calendar_holds_is_no_date_and_no_crash():
    # "2027年前" is before the year 2027, not 2027 years ago (which once raised ValueError).
    assert contents("在攒首付，目标是2027年前攒够40万。") == ["用户目标是2027年前攒够40万（2027）"]
    # Counts no calendar holds are no dates; the message is still read.
    for text in ("The pyramids were built 5000 years ago.", "我100000000天后要去火星", "I'll retire in 99999999 days",
                 "三千年前的事了", "9999个月后再说吧"):
        contents(text)


@pytest.mark.parametrize("messages, expected", [
    # "she's due" / "she is due" already has its verb: no second "is", and a pronoun is no
    # deadline of the user's ("User's She is due").
    (("My wife Ailsa is expecting. She's due on 20 May.",),
     ["User's wife Ailsa is due on 20 May (2027-05-20)"]),
    (("My wife Ailsa is expecting. She is due on 20 May.",),
     ["User's wife Ailsa is due on 20 May (2027-05-20)"]),
    # ... and a deadline typed bare still reads as the user's.
    (("grant report due friday 5pm",), ["User's grant report is due Friday 5pm (2026-09-11)"]),
    # What one has, due then: not "has a grant application is due".
    (("I have a grant application due next Friday.",), ["User has a grant application, due next Friday (2026-09-18)"]),
])
def test_due_after_a_pronoun_or_its_verb(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Forms from held-out set 30 (read after it was measured): a pet or person named after "is",
    # where someone is from, a relative's dated return, a pet's lasting medication with what the
    # vet said left out, a visit over a range of dates, a bare dated hearing, the user's own
    # business and workplace, a diet by its name, two answer rules in one, standing code and
    # answer rules in Chinese, a due date, an aim before a grandmother's birthday, an exam in a
    # month, care of a grandmother, the team one leads, a pet's illness, the home's devices.
    (("our dog is biscuit, 4yo beagle, absolutely food obsessed lol",),
     ["User's dog is biscuit, 4yo beagle, absolutely food obsessed"]),
    (("My wife is Priya.",), ["User's wife is Priya"]),
    (("my husband is Japanese",), ["User's husband is Japanese"]),
    (("wife gets back from deployment on the 20th of next month 🥹",),
     ["User's wife gets back from deployment on the 20th of next month (2026-10-20)"]),
    (("pepper (my cat) is on kidney meds twice a day now, vet says for life",),
     ["User's cat pepper is on kidney meds twice a day now"]),
    (("mother in law staying with us dec 20 – jan 3, pray for me lol",),
     ["User's mother in law staying with them dec 20 – jan 3 (2026-12-20)"]),
    (("my mom is visiting next week",), ["User's mom is visiting next week (2026-09-14~2026-09-20)"]),
    (("custody hearing is april 12, my lawyer wants docs by the 1st",), ["User's custody hearing is april 12 (2027-04-12)"]),
    (("Job interview is next Tuesday at 10",), ["User's job interview is next Tuesday at 10 (2026-09-15)"]),
    (("The bakery I run opens at 6am and we're closed on Mondays.",), ["The bakery the user runs opens at 6am"]),
    (("At work we're on Postgres 15 and Django.",), ["At the user's work, they're on Postgres 15 and Django"]),
    (("I'm doing keto, so can you make this lasagna recipe low-carb?",), ["User is doing keto"]),
    (("Please keep your answers short and skip the bullet points unless I ask for them.",),
     ["User prefers short answers without bullet points unless they ask for them"]),
    (("写前端代码请用 TypeScript。",), ["用户希望写前端代码用 TypeScript"]),
    (("回答的时候专业术语要解释一下，别直接甩英文缩写。",), ["用户希望回答的时候专业术语要解释一下，别直接甩英文缩写"]),
    (("预产期八月初，头胎，有点紧张",), ["用户预产期八月初，头胎（2027-08）"]),
    (("想在奶奶明年90大寿前学会讲潮汕话",), ["用户想在奶奶明年90大寿前学会讲潮汕话（2027）"]),
    (("五月份考跆拳道黑带，最近在狂练",), ["用户五月份考跆拳道黑带，最近在狂练（2027-05）"]),
    (("我在照顾得了阿尔茨海默的外婆，晚上基本没空。",), ["用户在照顾得了阿尔茨海默的外婆"]),
    (("我带的客服团队8个人",), ["用户带的客服团队8个人"]),
    (("狗子肾不好，医生说以后每天都要喂两次药",), ["用户的狗子肾不好"]),
    (("家里NAS是群晖DS920+",), ["用户家里NAS是群晖DS920+"]),
    (("我打算下半年开始准备雅思",), ["用户打算下半年开始准备雅思"]),
])
def test_forms_of_held_out_set_30(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # ... and what those forms must leave alone, with set 30's noise: a rule for this answer
    # only, a chore done, a stranger in a queue, a cry at a painting, a friend of a sister.
    (("my dog is family",), []),
    (("my dog is sick",), []),
    (("Answer this one in Spanish, please.",), []),
    (("just finished the dishes finally 😮‍💨",), []),
    (("超市排我前面那大哥买了四十罐午餐肉",), []),
    (("这幅画也太好看了吧",), []),
    (("我姐的朋友好像买了辆新车",), []),
    (("我今天腰不好受",), []),
    # An aim is no level held ("想……考过N2" is no N2), a due date said after the pregnancy says more of it,
    # the doctor's word about the user stays with the fact, and a question after an exam is no task.
    (("我想明年考过N2",), ["用户想明年考过N2（2027）"]),
    (("老婆怀孕了，预产期明年3月",), ["用户的老婆怀孕了，预产期明年3月（2027-03）"]),
    (("i started eating fish again like a month ago, doc said my iron was crap",),
     ["User started eating fish again like a month ago, doc said their iron was crap (2026-08)"]),
    (("我们家豆豆是只十二岁的老泰迪，心脏不太好",), ["用户家的豆豆是只十二岁的老泰迪，心脏不太好"]),
    (("not properly. my daughter comes home at christmas so maybe then.",), ["User's daughter comes home at christmas (2026-12-25)"]),
])
def test_what_the_forms_of_set_30_leave_alone(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # What readers of the last fresh set marked garbled: a "life update" opener and a remark in
    # brackets, a request after the fact ("put her name in the header", "先教我……呗", "别拉肚子"),
    # "not too many" taken for none, an English interjection in Chinese, a cut-off "爱吃的", a
    # "他" left in a cleft, the user's wish glued to the husband's fact.
    (("ok also life update, moving in with my gf Camille on july 1st (ugh, quebec moving day, chaos)",),
     ["User is moving in with their gf Camille on july 1st (2027-07-01)"]),
    (("fiancée's name is Ananya btw, put her name in the header with mine",), ["User's fiancée's name is Ananya"]),
    (("Please don't use too many exclamation marks in your replies, by the way",),
     ["User prefers few exclamation marks in replies"]),
    (("想学做饭，先教我个番茄炒蛋呗",), ["用户想学做饭"]),
    (("我乳糖不耐，别拉肚子😂",), ["用户乳糖不耐"]),
    (("nice 下班打球去了 我是程序员",), ["用户是程序员"]),
    (("孩子爱吃的",), []),
    (("跟我老公一起经营的 他以前是厨师 早餐都是他做 厨房也想顺便升级下",),
     ["用户的老公以前是厨师", "早餐都是用户的老公做"]),
    # ... and not: more of a rule for answers after "别", "别的" (the rest), a relative's own plan,
    # a standing rule that opens with "in general when I ...".
    (("回答尽量简短，别啰嗦",), ["用户希望回答尽量简短，别啰嗦"]),
    (("我不吃海鲜，也不吃羊肉，别的都还好。",), ["用户不吃海鲜", "用户不吃羊肉，别的都还好"]),
    (("我爸明年退休，打算回湖南老家住",), ["用户的爸爸明年退休，打算回湖南老家住（2027）"]),
    (("good. also in general when i ask for docs like this, give me markdown i can paste into notion",),
     ["User prefers: in general when the user asks for docs like this, give the user markdown the user can paste into notion"]),
])
def test_what_readers_of_the_last_fresh_set_found_garbled(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # Facts of the last fresh set that no rule took: a pastime by its name, a lasting condition by
    # its form, how the user reads best, a pet's habit, the pets at home with their names, the
    # team one is in, a studio that is the user's company.
    (("I do woodworking in the garage. Ideas for a simple DIY game?",), ["User does woodworking in the garage"]),
    (("Also I have plantar fasciitis in my left foot, it flares up if I do too much.",),
     ["User has plantar fasciitis in their left foot, it flares up if they do too much"]),
    (("prose is easier for me to read",), ["Prose is easier for the user to read"]),
    (("My cat Mortimer sits on the sheet music whenever I open it.",),
     ["User's cat Mortimer sits on the sheet music whenever the user opens it"]),
    (("家里两只草龟 大的叫团长 小的叫二狗",), ["用户家里两只草龟，大的叫团长，小的叫二狗"]),
    (("我们是外卖平台的订单组",), ["用户团队是外卖平台的订单组"]),
    (("我们是重庆的一个小工作室，叫山城光影",), ["用户的公司是重庆的一个小工作室，叫山城光影"]),
    # ... and not: an illness of the week, nothing done, a meeting.
    (("I have tonsillitis this week",), []),
    (("I do nothing all day",), []),
    (("I have a meeting",), []),
])
def test_facts_of_the_last_fresh_set_no_rule_took(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # What readers of an earlier fresh set (bench/fresh32) marked garbled: a date carried onto
    # what goes on ("keeps telling me", "还是做硬件", "之前一直在西安"), what she is said in
    # brackets, a verb before a comma left bare ("User freedive"), an exam credited to the corgi.
    (("I was diagnosed with type 2 diabetes last fall, and my wife Denise (she's a pharmacist) keeps telling me to walk after dinner",),
     ["User was diagnosed with type 2 diabetes last fall (2025-09~2025-11)",
      "User's wife Denise, who is a pharmacist, keeps telling the user to walk after dinner"]),
    (("上个月刚搬到成都了，之前一直在西安",), ["用户上个月刚搬到成都了（2026-08）", "用户之前一直在西安"]),
    (("I freedive, which is how I got into kelp",), ["User freedives, which is how they got into kelp"]),
    (("我家柯基最近老掉毛，考试是6月20号",), ["用户考试是6月20号（2027-06-20）"]),
    # ... and a note label keeps its colon, an unknown past keeps its form, what nearly happened stays out.
    (("Diet: mostly vegetarian, but fish is fine a couple times a week",), ["User's diet is mostly vegetarian"]),
    (("上个月差点换了工作，最后还是留下来了。",), []),
])
def test_what_readers_of_an_earlier_fresh_set_found_garbled(messages, expected):
    assert contents(*messages) == expected


@pytest.mark.parametrize("messages, expected", [
    # A review of this stop's rules found them matching more than they meant to; each case below
    # failed on the rules before the mend.
    (("my sister's Honda, which she bought last year, broke down again",), []),
    (("my wife's Mom and I are going to Rome next week",), ["User is going to Rome next week (2026-09-14~2026-09-20)"]),
    (("honestly surgery is friday and I'm scared",), ["User's surgery is Friday (2026-09-11)"]),
    (("我经常帮我旁边的同事修电脑",), ["用户经常帮自己的旁边的同事修电脑"]),
    (("我妈的朋友介绍我去了一家外企上班",), ["用户的妈妈的朋友介绍用户去了一家外企上班"]),
    (("写论文的时候我得用LaTeX",), []),
    (("ok if you can, my son turns 5 on friday",), ["User's son turns 5 on Friday"]),
    (("My sister is getting married in June and I'm trying to lose 10 pounds before then",),
     ["User's sister is getting married in June (2027-06)", "User is trying to lose 10 pounds before then (2027-06)"]),
    (("我不想考雅思了",), ["用户不想考雅思了"]),
    (("我每天跑步，整个人精神多了",), ["用户每天跑步，整个人精神多了"]),
    (("我妈高血压，不要吃太咸",), ["用户的妈妈高血压，不要吃太咸"]),
    (("我出国留学去了",), ["用户出国留学去了"]),
    (("I have an osmosis quiz on friday",), []),
    (("I'm on antibiotic tablets now for a chest infection",), []),
    (("I'm on the gluten-free aisle right now",), []),
    (("我爸天天喝酒，我总跟他说喝酒对他的肝不好",), ["用户的爸爸天天喝酒"]),
    (("我照看了一下午隔壁的奶奶",), ["用户照看了一下午隔壁的奶奶"]),
    (("we're expecting a baby in july (yes, twins!)",), ["User and their family are expecting a baby in july (yes, twins!) (2027-07)"]),
    (("I finished the laundry room renovation",), ["User finished the laundry room renovation"]),
    (("I bottlefeed the twins every 3 hours",), ["User bottlefeeds the twins every 3 hours"]),
    (("上个月差点换了工作，最后还是留下来了。",), []),
])
def test_what_the_review_of_this_stops_rules_found(messages, expected):
    assert contents(*messages) == expected
