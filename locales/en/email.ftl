# Emails (the notification payloads' subject, text and html). Every key here must exist
# in every locale: src/i18n.rs has a test.

# how deadlines are written (jiff strftime), followed by the time zone's name
datetime-format = %Y-%m-%d %H:%M

greeting = Hello { $name },
link-game = The game
footer-settings = Notification settings
footer-unsubscribe = Unsubscribe from these emails

turn-subject = Your turn in tilepost game { $game }
turn-intro = It is your turn.
turn-drew = You drew { $tile }.
turn-decision = A decision is waiting for you.
turn-deadline = Please play before { $deadline }.
turn-rules = House rules in this game: { $rules }.
turn-board = The board
turn-where = Where it fits
turn-action = Play your turn
turn-scores = Scores
turn-you = you
alt-tile = The drawn tile: { $tile }
alt-board = the board

since-title = Since your last turn:
since-placed = { $player } placed { $tile }.
since-completed = { $player } completed { $feature } and scored { $points }.
since-completed-for = { $player } completed { $feature }: { $scorers } scored { $points }{ $count ->
    [one] {""}
   *[other] {" "}each
}.
since-completed-nobody = { $player } completed { $feature }; nobody scored.
since-scored = { $player } scored { $points ->
    [one] 1 point
   *[other] { $points } points
} for { $feature }.
since-ferry-placed = { $player } put a ferry on a lake.
since-ferry-moved = { $player } moved a ferry.
since-message = { $player } drew the message “{ $message }”.
since-robbed = { $player }'s robber took { $points } from { $victim }.
end-title = How the end scored:
end-scored = { $player } scored { $points ->
    [one] 1 point
   *[other] { $points } points
} for { $feature } at the end.
names-and = { $first } and { $last }

completed-road = a { $tiles }-tile road
completed-city = a { $tiles }-tile city
completed-monastery = a monastery
completed-garden = a garden

features-road = { $count ->
    [one] a road
   *[other] { $count } roads
}
features-city = { $count ->
    [one] a city
   *[other] { $count } cities
}
features-field = { $count ->
    [one] a field
   *[other] { $count } fields
}
features-monastery = { $count ->
    [one] a monastery
   *[other] { $count } monasteries
}
features-garden = { $count ->
    [one] a garden
   *[other] { $count } gardens
}
features-river = { $count ->
    [one] a river
   *[other] { $count } rivers
}
features-lake = { $count ->
    [one] a lake
   *[other] { $count } lakes
}
features-flying_machine = { $count ->
    [one] a flying machine
   *[other] { $count } flying machines
}
features-crop_circle = { $count ->
    [one] a crop circle
   *[other] { $count } crop circles
}

message-1 = smallest road
message-2 = smallest city
message-3 = smallest monastery
message-4 = extra tile
message-5 = 2 points per coat of arms
message-6 = 2 points per knight
message-7 = 2 points per farmer
message-8 = score a follower

feature-road = a road
feature-city = a city
feature-field = a field
feature-monastery = a monastery
feature-garden = a garden
feature-river = a river
feature-lake = a lake
feature-flying_machine = a flying machine
feature-crop_circle = a crop circle

invited-subject = { $by } invites you to a tilepost game
invited-body = { $by } invites you to play tilepost game { $game }.
invited-join = Join over the API
invited-action = See the game and join

started-subject = tilepost game { $game } has started
started-body = The game has started with { $players }. { $first } plays first.

finished-subject = tilepost game { $game } is over
finished-body = The game is over.
finished-ranking = Final scores
finished-action = See the final board

deadline-subject = Your turn in tilepost game { $game } times out soon
deadline-body = Your move is due by { $deadline }; if you miss it you leave the game. Please play before then.

timedout-subject = { $player } timed out in tilepost game { $game }
timedout-body = { $player } did not play in time.

verify-subject = Confirm your email address for tilepost
verify-body = Please confirm that this address belongs to the tilepost account { $name }. Until you do, tilepost sends it no other email.
verify-action = Confirm the address
verify-ignore = The link works once, until { $expires }. If you did not sign up to tilepost, ignore this message.

reset-subject = Reset your tilepost password
reset-body = Someone asked to reset the password of the tilepost account { $name }.
reset-action = Choose a new password
reset-ignore = The link works once, until { $expires }. If you did not ask for it, ignore this message: your password stays as it is.

changed-subject = Your tilepost password was changed
changed-body-reset = The password of the tilepost account { $name } was changed on { $when } with the link of a reset email.
changed-body-change = The password of the tilepost account { $name } was changed on { $when } from the account's settings.
changed-revoked = So that nobody who knew the old password keeps the account: { $sessions ->
    [0] no other sign-in was open
    [one] one other sign-in was ended
   *[other] { $sessions } other sign-ins were ended
}, and { $tokens ->
    [0] no personal access token was revoked
    [one] one personal access token was revoked
   *[other] { $tokens } personal access tokens were revoked
}.
changed-tokens = Revoked tokens: { $names }. Programs that used them need a new token.
changed-calendar = Your deadline calendar's secret address was revoked too: make a new one in the settings and add it to your calendar again.
changed-action = If you did not change it, choose a new password now
changed-ignore = If you changed it yourself, there is nothing more to do.
plan-subject = Your plan was played in tilepost game { $game }
plan-body = You drew { $tile }. The server played the plan you left for it; the other plans for this game are dropped.
digest-subject = { $count ->
    [one] One tilepost game waits for you
   *[other] { $count } tilepost games wait for you
}
digest-intro = Your daily digest: { $count ->
    [one] one game waits
   *[other] { $count } games wait
} for your move.
digest-action = Open my games
digest-line = Game { $game }, due { $deadline }
digest-line-no-deadline = Game { $game } (no clock)
calendar-name = tilepost: your deadlines
calendar-description = The deadlines of your moves in tilepost's correspondence games, and the rounds of your tournaments. It updates as the games and the events move.
calendar-due = Your move in tilepost against { $opponents }
calendar-due-body = Play before { $when }: { $link }
calendar-paused = The clock stands still (you are on vacation, or the tournament is paused), and the deadline moves out with the time.
calendar-first-round = { $event }: the first round starts
calendar-first-round-body = The first round of { $event } starts on { $when } at the earliest, if at least two players have registered: { $link }
calendar-next-round = { $event }: the next round starts
calendar-next-round-body = The next round of { $event } starts on { $when } at the earliest, once the round before it is over: { $link }
calendar-round-cap = { $event }: round { $round } of stage { $stage } ends
calendar-round-cap-body = Round { $round } of stage { $stage } of { $event } ends on { $when }: games still running then are decided by the event's rule. { $link }

## Web push notifications (title and body on the device)
push-turn-body = It is your turn. Tap to play.
push-deadline-title = Tilepost game { $game } times out soon
push-deadline-body = Your move is due soon: play before the deadline or you leave the game.
push-invited-body = Tap to see game { $game } and join.
push-chat-title = New message in tilepost game { $game }

## Tournaments
link-tournament = The event
tround-subject = { $event }: round { $round } of stage { $stage } has started
tround-body = Round { $round } of stage { $stage } has started: you play { $opponents }, { $games ->
    [one] one game
   *[other] { $games } games
}.
tround-game = Game { $number } ({ $game })
tround-action = Play your first game
tround-bye = Round { $round } of stage { $stage } has started, and you have a bye this round: it adds { $points } to your points. Your next round starts when this one ends.
tround-bye-through = Round { $round } of stage { $stage } has started, and you go through it without a game (a bye). Your next round starts when this one ends.
tround-note = Each game has its own clock: play every game of the round before its deadline.
tstage-subject = { $event }: stage { $stage } is over
tstage-qualified = Stage { $stage } is over: you placed { $rank } of { $count } and go on to the next stage.
tstage-out = Stage { $stage } is over: you placed { $rank } of { $count }, and your event ends here. Thank you for playing.
tfinished-subject = { $event } is over
tfinished-won = The event is over, and you won it, of { $count } players. Congratulations!
tfinished-body = The event is over: { $winner } won it. You placed { $place } of { $count }.
tfinished-action = See the final standings
tfinished-not-held-subject = { $event } did not take place
tfinished-not-held = { $event } did not take place: when its start date came, you were the only player registered, and an event needs at least two. No round was played.
tpaused-subject = { $event } is paused
tpaused-body = The organiser paused { $event }: { $reason }. Until it resumes, no round is paired and the clocks of its games stand still, so no one runs out of time; you may still move, and a game that ends counts.
tresumed-subject = { $event } goes on
tresumed-body = The organiser resumed { $event }. The clocks of its games run again, each turn with the time it had when the pause began; a round that was waiting for the pause to end is paired now.
teliminated-subject = { $event }: you are out of stage { $stage }
teliminated-body = { $winner } beat you in round { $round } of stage { $stage }, and you are out of its bracket.
teliminated-last = Your event ends here: you will hear your final place when the event is over. Thank you for playing.
teliminated-next = The best { $count } of this stage go on to stage { $next }: when the stage is over you will hear your rank in it, and whether you are among them.
tinvited-subject = { $by } invites you to { $event }
tinvited-body = { $by } invites you to play in { $event }, a tilepost tournament.
tinvited-starts = It starts on { $when }, if at least two players have registered by then.
tinvited-no-date = It starts when its organiser starts it.
tinvited-under-way = It is under way already: if it still takes late entries, you play from its next round.
tinvited-action = See the event and register
tinvited-join = Register over the API
push-tournament-body = Tap to see your games of the round.
