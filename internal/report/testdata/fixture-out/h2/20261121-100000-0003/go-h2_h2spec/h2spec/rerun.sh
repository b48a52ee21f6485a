wirelab h2 --servers go-h2 --cases h2spec --seed 3 --profile ideal
