# Descrições das peças: como um jogador chama um tipo de peça ("uma cidade em um lado com
# uma estrada reta"). O motor deriva a descrição das características da peça como chaves
# (`tile-<chave>`): uma forma principal e seus extras. Cada mensagem leva o artigo
# indefinido. Os catálogos do cliente web têm as mesmas palavras em `tile.<chave>`.

tile-with = { $main } com { $extras }
tile-and-two = { $first } e { $last }
tile-and-more = { $first } e { $last }

tile-field = um campo
tile-monastery = um mosteiro
tile-abbey = uma abadia

tile-city-cap = uma cidade em um lado
tile-city-corner = uma cidade em dois lados vizinhos
tile-city-across = uma cidade atravessando a peça
tile-city-three-sides = uma cidade em três lados
tile-city-four-sides = uma cidade nos quatro lados
tile-city-caps-opposite = duas cidades em lados opostos
tile-city-caps-adjacent = duas cidades em lados vizinhos
tile-city-caps-three = três cidades separadas
tile-city-caps-four = quatro cidades separadas
tile-city-across-another = outra cidade atravessando a peça
tile-city-corner-another = outra cidade em dois lados vizinhos
tile-city-cap-separate = outra cidade em um lado
tile-city-caps-separate-two = mais duas cidades em um lado cada
tile-shield = um brasão
tile-shields-two = dois brasões
tile-cathedral = uma catedral
tile-wine = vinho
tile-grain = trigo
tile-cloth = tecido

tile-road = uma estrada
tile-roads-two = duas estradas
tile-roads-three = três estradas
tile-roads-four = quatro estradas
tile-road-straight = uma estrada reta
tile-roads-straight-two = duas estradas retas
tile-road-curve = uma estrada em curva
tile-road-curves-two = duas estradas em curva
tile-road-three-way = uma estrada em T
tile-road-end = um fim de estrada
tile-road-ends-two = dois fins de estrada
tile-road-ends-more = fins de estrada
tile-junction = um entroncamento de três estradas
tile-crossroads = um cruzamento
tile-inn = uma estalagem
tile-tunnel = um túnel sob a cidade

tile-river-spring = uma nascente de rio
tile-river-lake = um lago no fim do rio
tile-river-straight = um trecho reto de rio
tile-river-bend = uma curva de rio

tile-garden = um jardim
tile-ferry-lake = um lago de balsas
tile-flying-machine = uma máquina voadora
tile-crop-circle = um círculo na plantação
tile-gold = uma barra de ouro
tile-magic-portal = um portal mágico
tile-robber = um símbolo de ladrão
