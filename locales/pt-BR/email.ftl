# E-mails (assunto, texto e html das notificações). Toda chave daqui existe em todos os
# idiomas: src/i18n.rs tem um teste.

datetime-format = %d/%m/%Y %H:%M

greeting = Olá, { $name }!
link-game = A partida
footer-settings = Configurações de notificação
footer-unsubscribe = Cancelar estes e-mails

turn-subject = Sua vez na partida { $game } do tilepost
turn-intro = É a sua vez.
turn-drew = Você tirou { $tile }.
turn-decision = Há uma decisão esperando por você.
turn-deadline = Jogue antes de { $deadline }.
turn-rules = Regras da casa nesta partida: { $rules }.
turn-board = O tabuleiro
turn-where = Onde ela encaixa
turn-action = Jogar sua vez
turn-scores = Placar
turn-you = você
alt-tile = A peça tirada: { $tile }
alt-board = o tabuleiro

since-title = Desde a sua última jogada:
since-placed = { $player } colocou { $tile }.
since-completed = { $player } completou { $feature } e marcou { $points }.
since-completed-for = { $player } completou { $feature }: { $scorers } { $count ->
    [one] marcou { $points }
   *[other] marcaram { $points } cada
}.
since-completed-nobody = { $player } completou { $feature }; ninguém pontuou.
since-scored = { $player } marcou { $points ->
    [one] 1 ponto
   *[other] { $points } pontos
} por { $feature }.
since-ferry-placed = { $player } pôs uma balsa num lago.
since-ferry-moved = { $player } moveu uma balsa.
since-message = { $player } tirou a mensagem “{ $message }”.
since-robbed = O ladrão de { $player } tirou { $points } de { $victim }.
end-title = Como o fim pontuou:
end-scored = { $player } marcou { $points ->
    [one] 1 ponto
   *[other] { $points } pontos
} por { $feature } no fim.
names-and = { $first } e { $last }

completed-road = uma estrada de { $tiles } peças
completed-city = uma cidade de { $tiles } peças
completed-monastery = um mosteiro
completed-garden = um jardim

features-road = { $count ->
    [one] uma estrada
   *[other] { $count } estradas
}
features-city = { $count ->
    [one] uma cidade
   *[other] { $count } cidades
}
features-field = { $count ->
    [one] um campo
   *[other] { $count } campos
}
features-monastery = { $count ->
    [one] um mosteiro
   *[other] { $count } mosteiros
}
features-garden = { $count ->
    [one] um jardim
   *[other] { $count } jardins
}
features-river = { $count ->
    [one] um rio
   *[other] { $count } rios
}
features-lake = { $count ->
    [one] um lago
   *[other] { $count } lagos
}
features-flying_machine = { $count ->
    [one] uma máquina voadora
   *[other] { $count } máquinas voadoras
}
features-crop_circle = { $count ->
    [one] um círculo nas plantações
   *[other] { $count } círculos nas plantações
}

message-1 = menor estrada
message-2 = menor cidade
message-3 = menor mosteiro
message-4 = peça extra
message-5 = 2 pontos por brasão
message-6 = 2 pontos por cavaleiro
message-7 = 2 pontos por fazendeiro
message-8 = pontuar um seguidor

feature-road = uma estrada
feature-city = uma cidade
feature-field = um campo
feature-monastery = um mosteiro
feature-garden = um jardim
feature-river = um rio
feature-lake = um lago
feature-flying_machine = uma máquina voadora
feature-crop_circle = um círculo nas plantações

invited-subject = { $by } convida você para uma partida do tilepost
invited-body = { $by } convida você para jogar a partida { $game } do tilepost.
invited-join = Entrar pela API
invited-action = Ver a partida e entrar

started-subject = A partida { $game } do tilepost começou
started-body = A partida começou com { $players }. { $first } joga primeiro.

finished-subject = A partida { $game } do tilepost terminou
finished-body = A partida terminou.
finished-ranking = Placar final
finished-action = Ver o tabuleiro final

deadline-subject = Sua vez na partida { $game } do tilepost está quase acabando
deadline-body = Sua jogada vence em { $deadline }; se você não jogar até lá, sai da partida. Jogue antes disso.

timedout-subject = { $player } perdeu o prazo na partida { $game } do tilepost
timedout-body = { $player } não jogou a tempo.

verify-subject = Confirme seu endereço de email no tilepost
verify-body = Confirme que este endereço pertence à conta { $name } do tilepost. Até lá, o tilepost não envia nenhum outro email para ele.
verify-action = Confirmar o endereço
verify-ignore = O link funciona uma vez, até { $expires }. Se você não se cadastrou no tilepost, ignore esta mensagem.

reset-subject = Redefina sua senha do tilepost
reset-body = Alguém pediu para redefinir a senha da conta { $name } do tilepost.
reset-action = Escolher uma nova senha
reset-ignore = O link funciona uma vez, até { $expires }. Se você não pediu, ignore esta mensagem: sua senha continua a mesma.

changed-subject = Sua senha do tilepost foi alterada
changed-body-reset = A senha da conta { $name } do tilepost foi alterada em { $when } com o link de um email de redefinição.
changed-body-change = A senha da conta { $name } do tilepost foi alterada em { $when } nas configurações da conta.
changed-revoked = Para que ninguém que conhecia a senha antiga continue com a conta: { $sessions ->
    [0] nenhum outro acesso estava aberto
    [one] um outro acesso foi encerrado
   *[other] { $sessions } outros acessos foram encerrados
}, e { $tokens ->
    [0] nenhum token de acesso pessoal foi revogado
    [one] um token de acesso pessoal foi revogado
   *[other] { $tokens } tokens de acesso pessoal foram revogados
}.
changed-tokens = Tokens revogados: { $names }. Os programas que os usavam precisam de um novo token.
changed-calendar = O endereço secreto do seu calendário de prazos também foi revogado: crie um novo nas configurações e adicione-o de novo ao seu calendário.
changed-action = Se não foi você, escolha uma nova senha agora
changed-ignore = Se foi você que alterou, não há mais nada a fazer.
plan-subject = Seu plano foi jogado na partida { $game } do tilepost
plan-body = Você tirou { $tile }. O servidor jogou o plano que você deixou para essa peça; os outros planos desta partida foram descartados.
digest-subject = { $count ->
    [one] Uma partida do tilepost espera por você
   *[other] { $count } partidas do tilepost esperam por você
}
digest-intro = Seu resumo diário: { $count ->
    [one] uma partida espera
   *[other] { $count } partidas esperam
} a sua jogada.
digest-action = Abrir minhas partidas
digest-line = Partida { $game }, até { $deadline }
digest-line-no-deadline = Partida { $game } (sem relógio)
calendar-name = tilepost: seus prazos
calendar-description = Os prazos das suas jogadas nas partidas por correspondência do tilepost, e as rodadas dos seus torneios. Atualiza-se conforme as partidas e os torneios andam.
calendar-due = Sua vez no tilepost contra { $opponents }
calendar-due-body = Jogue antes de { $when }: { $link }
calendar-paused = O relógio está parado (você está de férias, ou o torneio está pausado), e o prazo se afasta com o tempo.
calendar-first-round = { $event }: começa a primeira rodada
calendar-first-round-body = A primeira rodada de { $event } começa em { $when } no mais cedo, se pelo menos dois jogadores tiverem se inscrito: { $link }
calendar-next-round = { $event }: começa a próxima rodada
calendar-next-round-body = A próxima rodada de { $event } começa em { $when } no mais cedo, quando a rodada anterior tiver acabado: { $link }
calendar-round-cap = { $event }: acaba a rodada { $round } da fase { $stage }
calendar-round-cap-body = A rodada { $round } da fase { $stage } de { $event } acaba em { $when }: as partidas ainda em andamento são decididas pela regra do torneio. { $link }

## Notificações push (título e texto no aparelho)
push-turn-body = É a sua vez. Toque para jogar.
push-deadline-title = A partida { $game } do tilepost está quase acabando
push-deadline-body = Seu prazo está acabando: jogue antes dele ou você sai da partida.
push-invited-body = Toque para ver a partida { $game } e entrar.
push-chat-title = Nova mensagem na partida { $game } do tilepost

## Torneios
link-tournament = O torneio
tround-subject = { $event }: começou a rodada { $round } da fase { $stage }
tround-body = Começou a rodada { $round } da fase { $stage }: você joga contra { $opponents }, { $games ->
    [one] uma partida
   *[other] { $games } partidas
}.
tround-game = Partida { $number } ({ $game })
tround-action = Jogar sua primeira partida
tround-bye = Começou a rodada { $round } da fase { $stage }, e você folga nesta rodada: a folga soma { $points } aos seus pontos. Sua próxima rodada começa quando esta acabar.
tround-bye-through = Começou a rodada { $round } da fase { $stage }, e você passa por ela sem jogar (folga). Sua próxima rodada começa quando esta acabar.
tround-note = Cada partida tem o seu relógio: jogue todas as partidas da rodada antes do prazo.
tstage-subject = { $event }: a fase { $stage } acabou
tstage-qualified = A fase { $stage } acabou: você ficou em { $rank }º de { $count } e segue para a próxima fase.
tstage-out = A fase { $stage } acabou: você ficou em { $rank }º de { $count }, e o torneio acaba aqui para você. Obrigado por jogar.
tfinished-subject = { $event } acabou
tfinished-won = O torneio acabou, e você venceu, entre { $count } jogadores. Parabéns!
tfinished-body = O torneio acabou: { $winner } venceu. Você ficou em { $place }º de { $count }.
tfinished-action = Ver a classificação final
tfinished-not-held-subject = { $event } não aconteceu
tfinished-not-held = { $event } não aconteceu: quando chegou a data de início, você era o único jogador inscrito, e um torneio precisa de pelo menos dois. Nenhuma rodada foi jogada.
tpaused-subject = { $event } está pausado
tpaused-body = O organizador pausou { $event }: { $reason }. Até a retomada, nenhuma rodada é emparelhada e os relógios das partidas ficam parados, então ninguém perde por tempo; você ainda pode jogar, e uma partida que terminar conta.
tresumed-subject = { $event } continua
tresumed-body = O organizador retomou { $event }. Os relógios das partidas voltam a correr, cada vez com o tempo que tinha quando a pausa começou; uma rodada que esperava o fim da pausa é emparelhada agora.
teliminated-subject = { $event }: você saiu da fase { $stage }
teliminated-body = { $winner } venceu você na rodada { $round } da fase { $stage }, e você está fora da chave.
teliminated-last = O torneio acaba aqui para você: você saberá sua colocação final quando o torneio acabar. Obrigado por jogar.
teliminated-next = Os { $count } melhores desta fase seguem para a fase { $next }: quando a fase acabar, você saberá sua colocação nela e se está entre eles.
tinvited-subject = { $by } convida você para { $event }
tinvited-body = { $by } convida você para jogar { $event }, um torneio do tilepost.
tinvited-starts = Ele começa em { $when }, se pelo menos dois jogadores tiverem se inscrito até lá.
tinvited-no-date = Ele começa quando o organizador o iniciar.
tinvited-under-way = Ele já está em andamento: se ainda aceitar inscrições, você joga a partir da próxima rodada.
tinvited-action = Ver o torneio e se inscrever
tinvited-join = Inscrever-se pela API
push-tournament-body = Toque para ver suas partidas da rodada.
