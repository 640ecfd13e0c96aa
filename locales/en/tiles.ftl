# Tile descriptions: what a player calls a tile type ("a city cap with a straight road").
# The engine derives each tile's description from its features as keys (`tile-<key>`):
# a main shape and its extras. Each message is a noun phrase with its indefinite article.
# The web client's catalogs hold the same words under `tile.<key>`.

# "a city cap" with "a straight road"
tile-with = { $main } with { $extras }
# the last two extras
tile-and-two = { $first } and { $last }
# the last of three or more extras, after a comma
tile-and-more = { $first }, and { $last }

tile-field = a field
tile-monastery = a monastery
tile-abbey = an abbey

tile-city-cap = a city cap
tile-city-corner = a city corner
tile-city-across = a city across the tile
tile-city-three-sides = a city on three sides
tile-city-four-sides = a city on all four sides
tile-city-caps-opposite = two city caps on opposite sides
tile-city-caps-adjacent = two city caps on adjacent sides
tile-city-caps-three = three city caps
tile-city-caps-four = four city caps
tile-city-across-another = another city across the tile
tile-city-corner-another = another city corner
tile-city-cap-separate = a separate city cap
tile-city-caps-separate-two = two separate city caps
tile-shield = a shield
tile-shields-two = two shields
tile-cathedral = a cathedral
tile-wine = wine
tile-grain = grain
tile-cloth = cloth

tile-road = a road
tile-roads-two = two roads
tile-roads-three = three roads
tile-roads-four = four roads
tile-road-straight = a straight road
tile-roads-straight-two = two straight roads
tile-road-curve = a road curve
tile-road-curves-two = two road curves
tile-road-three-way = a three-way road
tile-road-end = a road end
tile-road-ends-two = two road ends
tile-road-ends-more = road ends
tile-junction = a three-way junction
tile-crossroads = a crossroads
tile-inn = an inn
tile-tunnel = a tunnel under the city

tile-river-spring = a river spring
tile-river-lake = a river lake
tile-river-straight = a straight river
tile-river-bend = a river bend

tile-garden = a garden
tile-ferry-lake = a ferry lake
tile-flying-machine = a flying machine
tile-crop-circle = a crop circle
tile-gold = a gold bar
tile-magic-portal = a magic portal
tile-robber = a robber symbol
