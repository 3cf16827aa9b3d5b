"""The rules of each variant, short, in English and Russian, for the client's rules page (``r``
at the table, and the end of ``?``). They restate docs/RULES.md (the source: where they differ,
docs/RULES.md is right and this page has a bug), in its vocabulary: set, claim, pile, challenge
(«Не верю»), believe («Верю»), discard, quad, out, deal.

``rules_text(variant, lang)`` returns the page: a title line, then the rules; "" for a variant
this client does not know (the server may have more).
"""

# ruff: noqa: E501  (prose: a text is one line however long its sentence)

from __future__ import annotations

EN = {
    "verish": """\
verish «Веришь — не веришь»: 2–6 players, 36 cards (52 for 4 or more); one card is hidden and never played.
• The leader lays 1–3 cards face down and names a rank ("two queens"). The count is always true; the rank may be a lie.
• The next player either challenges the last set («Не верю», n) or lays 1–3 more cards claiming the same rank. A set that has been covered can no longer be called.
• A challenge turns up the last set only. False: its layer takes the whole pile and the challenger leads a new round. True: the challenger takes the pile and the player after him leads.
• Quads: the player who has just taken the pile may show and discard whole quads (d) before the next set is laid, or go on without (k). After a person takes the pile, the next set waits (the quads window), whatever he holds: until he decides where turns are untimed, else for a time counted down on the status line.
• Last cards: a player who laid his last cards is out when the next player lays on, or when a challenge shows his set true; a bluff gives him the pile.
• The last player left holding cards loses the deal. The match counts deals lost: fewer is better.""",
    "veryu": """\
veryu «Верю — не верю»: 2–12 players; 36 cards up to 4 players, 52 up to 8, two decks above.
• Every card is dealt. The dealer leads 1–4 cards and names a rank; each next player lays 1–4 more of that rank, believes the last set («Верю», y) or challenges it («Не верю», n).
• Believe: a true set sends the pile to the discard; a false one makes the believer take the pile. Challenge: a false set goes back to its layer with the whole pile; a true one, to the challenger.
• Quads: on your turn, before you act, you may discard whole quads face down (d); it does not use up your turn.
• Last cards: a player who laid his last cards is out unless he ends up taking the pile. If everyone lays on and the turn comes back to him, he makes a final call on the set before him: right, he is out; wrong, he takes the pile and plays on.
• The last player left holding cards loses and deals the next deal. The match counts deals lost: fewer is better.""",
    "lozh": """\
lozh «Ложь во спасение»: 2–12 players, 36 cards (52 from 7 players, two decks from 11).
• The first dealer is drawn: everyone draws a card, the lowest deals. Everyone gets the same number of cards; the rest are set aside face down.
• The player left of the dealer leads 1–4 cards and names a rank; the next lays more of that rank, believes («Верю», y) or challenges («Не верю», n).
• Believe: true, the pile goes to the discard; false, the believer takes it. Challenge: false, the layer takes the pile; true, the challenger.
• Last cards: when the next player lays on, the empty-handed player is out; a challenge that shows a bluff gives him the pile; a true set, or a believe, puts him out.
• The last player left holding cards loses and deals the next deal. The match counts deals lost: fewer is better.""",
    "hoyle": """\
hoyle «Не верю»: 2–12 players, 52 cards (two decks for 6 or more); dealt in packets of 3 (or 2).
• The first set claims aces, the next kings, then queens, and so on down; after twos come aces again. A set is 1–4 cards (1–8 with two decks), and the player after the layer always lays next.
• Anyone but the layer may challenge («Не верю», n) until the next set is laid; the first to speak wins, and calls at the same moment go to the one nearest the layer's left. A challenge made before the set it aims at is void and bars its maker from that set.
• True claim: the challenger takes the pile; false: the layer takes it. Play goes on with the next rank either way.
• By option, a player may declare none (0): he holds no card of the rank due. A challenge then shows his cards of that rank.
• The first player rid of his cards wins the deal, once his last set is covered by the next one or survives a challenge. The match counts chips: every other player pays the winner one (or one per card left, by option). More is better.""",
    "hoyle-three": """\
hoyle-three «Не верю (по три)»: 3–8 players, 52 cards (two decks for 6 or more) dealt equally; the rest is a face-down stock.
• Every set is three cards. The first player names any rank; each next set claims the rank below (… 3 2 A K …).
• A player with one or two cards first draws from the stock up to three; when the stock cannot make it up, he lays what he holds.
• Anyone but the layer may challenge («Не верю», n) until the next set is laid. True claim: the challenger takes the pile; false: the layer. Play goes on with the next rank.
• By option, a player may declare none (0) of the rank due.
• The first player rid of his cards wins the deal. The match counts chips: more is better.""",
    "cheat": """\
cheat «Обманщик»: 3–12 players, 52 cards (two decks for 7 or more), all dealt.
• The player left of the dealer leads any rank; each next set claims the rank above the last claim (… K A 2 …), 1–4 cards.
• You may lie about the rank and about the count: lay more or fewer cards than you claim; any difference makes the claim false. The sizes of hands and pile are hidden.
• Anyone but the layer may challenge («Не верю», n) until the next set covers it. Right: the bluffer takes the pile; wrong: the challenger does. Whoever took the pile leads a new round with any rank.
• The first player whose last set is covered, or survives a challenge, wins the deal. This variant keeps no score: the scores page counts the deals each player won.""",
    "cheat-free": """\
cheat-free «Переменный обманщик»: as cheat, but any rank may be claimed on every set.
• 3–12 players, 52 cards (two decks for 7 or more), all dealt; sets of 1–4 cards.
• You may lie about the rank and the count (lay more or fewer cards than you claim); the sizes of hands and pile are hidden.
• Anyone but the layer may challenge («Не верю», n) until the next set covers it. Right: the bluffer takes the pile; wrong: the challenger. The taker leads a new round.
• The first player whose last set is covered, or survives a challenge, wins the deal. No score is kept: the scores page counts the deals won.""",
}

RU = {
    "verish": """\
verish «Веришь — не веришь»: 2–6 игроков, 36 карт (52 на четверых и больше); одна карта прячется и не играет.
• Заходящий кладёт рубашкой вверх 1–3 карты и называет ранг («две дамы»). Число всегда честное, ранг может быть ложью.
• Следующий игрок либо проверяет последний набор («Не верю», n), либо кладёт ещё 1–3 карты того же ранга. Накрытый набор проверить уже нельзя.
• Проверка вскрывает только последний набор. Ложь: положивший забирает всю стопку, а проверивший заходит заново. Правда: стопку забирает проверивший, заходит следующий за ним.
• Четвёрки: тот, кто только что забрал стопку, может показать и сбросить полные четвёрки (d), пока не положен следующий набор, или идти дальше без сброса (k). Когда стопку забрал человек, следующий набор ждёт (окно четвёрок), что бы у него ни было: пока он не решит, если время хода не ограничено, иначе — время, которое отсчитывает строка состояния.
• Последние карты: кто положил последние карты, выходит, когда следующий кладёт свой набор или когда проверка показала правду; за блеф он забирает стопку.
• Последний, у кого остались карты, проигрывает партию. В матче считаются проигранные партии: чем меньше, тем лучше.""",
    "veryu": """\
veryu «Верю — не верю»: 2–12 игроков; 36 карт до четверых, 52 до восьми, дальше две колоды.
• Сдаются все карты. Сдающий заходит 1–4 картами и называет ранг; каждый следующий кладёт ещё 1–4 того же ранга, верит последнему набору («Верю», y) или проверяет его («Не верю», n).
• «Верю»: правдивый набор отправляет стопку в отбой, ложный — стопку забирает поверивший. «Не верю»: ложь — стопку забирает положивший, правда — проверивший.
• Четвёрки: в свой ход, до действия, можно сбросить полные четвёрки рубашкой вверх (d); ход при этом не теряется.
• Последние карты: положивший последние карты выходит, если в итоге не заберёт стопку. Если все кладут дальше и ход вернулся к нему, он делает последний выбор о наборе перед ним: угадал — выходит, ошибся — забирает стопку и играет дальше.
• Последний, у кого остались карты, проигрывает и сдаёт следующую партию. В матче считаются проигранные партии: чем меньше, тем лучше.""",
    "lozh": """\
lozh «Ложь во спасение»: 2–12 игроков, 36 карт (52 от семи, две колоды от одиннадцати).
• Первого сдающего тянут жребием: каждый тянет карту, младшая сдаёт. Всем поровну; остаток откладывается рубашкой вверх.
• Игрок слева от сдающего заходит 1–4 картами и называет ранг; следующий кладёт ещё того же ранга, верит («Верю», y) или проверяет («Не верю», n).
• «Верю»: правда — стопка в отбой; ложь — стопку забирает поверивший. «Не верю»: ложь — стопку забирает положивший; правда — проверивший.
• Последние карты: когда следующий кладёт набор, игрок с пустой рукой выходит; проверка, вскрывшая блеф, отдаёт ему стопку; правда или «верю» — выходит.
• Последний, у кого остались карты, проигрывает и сдаёт следующую партию. В матче считаются проигранные партии: чем меньше, тем лучше.""",
    "hoyle": """\
hoyle «Не верю»: 2–12 игроков, 52 карты (две колоды на шестерых и больше); сдают пачками по 3 (или по 2).
• Первый набор заявляет тузов, следующий — королей, потом дам и так далее вниз; после двоек снова тузы. В наборе 1–4 карты (1–8 с двумя колодами), и следующим всегда кладёт игрок после положившего.
• Любой, кроме положившего, может сказать «Не верю» (n), пока не положен следующий набор; побеждает первый, а одновременные — ближайший слева от положившего. «Не верю» раньше самого набора не считается и лишает права проверить этот набор.
• Правда: стопку забирает проверивший; ложь — положивший. Игра идёт дальше со следующим рангом.
• По желанию стола можно объявить, что карт нужного ранга нет (0); проверка покажет ваши карты этого ранга.
• Побеждает первый избавившийся от карт, когда его последний набор накрыт следующим или выдержал проверку. В матче считаются фишки: каждый платит победителю по одной (или по одной за каждую оставшуюся карту). Чем больше, тем лучше.""",
    "hoyle-three": """\
hoyle-three «Не верю (по три)»: 3–8 игроков, 52 карты (две колоды на шестерых и больше) поровну; остаток — прикуп рубашкой вверх.
• Каждый набор — три карты. Первый называет любой ранг; каждый следующий — ранг ниже (… 3 2 A K …).
• У кого одна-две карты, сначала добирает из прикупа до трёх; если прикупа не хватает, кладёт что есть.
• «Не верю» (n) может сказать любой, кроме положившего, пока не положен следующий набор. Правда — стопку забирает проверивший, ложь — положивший. Игра идёт дальше со следующим рангом.
• По желанию стола можно объявить, что карт нужного ранга нет (0).
• Побеждает первый избавившийся от карт. В матче считаются фишки: чем больше, тем лучше.""",
    "cheat": """\
cheat «Обманщик»: 3–12 игроков, 52 карты (две колоды на семерых и больше), сдаются все.
• Игрок слева от сдающего заходит любым рангом; каждый следующий набор заявляет ранг выше предыдущего (… K A 2 …), 1–4 карты.
• Лгать можно и о ранге, и о числе: положить больше или меньше карт, чем заявлено; любое расхождение делает заявление ложным. Размеры рук и стопки скрыты.
• «Не верю» (n) может сказать любой, кроме положившего, пока набор не накрыт следующим. Угадал — стопку забирает обманщик; ошибся — проверивший. Забравший стопку начинает новый круг с любого ранга.
• Побеждает первый, чей последний набор накрыт или выдержал проверку. Очков этот вариант не ведёт: на странице счёта — сколько партий выиграл каждый.""",
    "cheat-free": """\
cheat-free «Переменный обманщик»: как cheat, но в каждом наборе можно заявить любой ранг.
• 3–12 игроков, 52 карты (две колоды на семерых и больше), сдаются все; наборы по 1–4 карты.
• Лгать можно о ранге и о числе (положить больше или меньше, чем заявлено); размеры рук и стопки скрыты.
• «Не верю» (n) может сказать любой, кроме положившего, пока набор не накрыт. Угадал — стопку забирает обманщик; ошибся — проверивший. Забравший начинает новый круг.
• Побеждает первый, чей последний набор накрыт или выдержал проверку. Очков нет: на странице счёта — выигранные партии.""",
}


def rules_text(variant: str, lang: str) -> str:
    """The rules page of ``variant`` in ``lang`` (``ru`` or ``en``), or "" when unknown."""
    return (RU if lang == "ru" else EN).get(variant, "")
