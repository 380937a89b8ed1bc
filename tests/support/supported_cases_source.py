"""The hand-written half of the labelled set for ``paragraphs_supported``.

``build_supported_cases.py`` turns these into ``supported_cases.json``: each supported case as
written, plus unsupported variants made from them the way real mistakes happen (a number
changed, a number added, a name swapped, the wrong claims cited, a sentence about something
else), plus the hand-written unsupported cases below. The news is invented but written the way
wire copy and trade press write; the seed stories' own paragraphs are added from the fixtures.
"""

from __future__ import annotations

# (domain, claims, supported paraphrase)
SUPPORTED: list[tuple[str, list[str], str]] = [
    # --- Business and markets ---
    (
        "business",
        [
            "Northwind Traders reported third-quarter revenue of $4.2 billion, up 12% from a year earlier.",
            "Northwind Traders said online orders made up 38% of sales in the quarter.",
        ],
        "Northwind Traders grew third-quarter revenue 12% year on year to $4.2bn, with online orders "
        "accounting for 38% of its sales.",
    ),
    (
        "business",
        ["Halvorsen Shipping will cut 1,150 jobs, about 9 percent of its workforce, by the end of 2027."],
        "Halvorsen Shipping plans to eliminate 1150 positions, roughly 9% of its workforce, before the end of 2027.",
    ),
    (
        "business",
        [
            "Brightline Foods agreed to buy the snack maker Crunchwell for $860 million in cash.",
            "The Crunchwell deal is expected to close in the first half of 2027, pending regulatory approval.",
        ],
        "Brightline Foods has agreed to pay $860 million in cash for snack maker Crunchwell, a deal it expects "
        "to close in the first half of 2027 once regulators approve it.",
    ),
    (
        "business",
        ["Orrin Motors delivered 214,000 vehicles in the quarter, short of the 230,000 analysts had expected."],
        "Orrin Motors handed over 214,000 vehicles during the quarter, missing the analyst expectation of 230,000.",
    ),
    (
        "business",
        [
            "Pellham Bank raised its full-year profit forecast to between $7.1 billion and $7.4 billion.",
            "Pellham Bank said net interest income rose 6 percent in the quarter.",
        ],
        "Pellham Bank lifted its full-year profit forecast to a range of $7.1 billion to $7.4 billion after "
        "net interest income increased 6% in the quarter.",
    ),
    (
        "business",
        ["Shares of Kestrel Semiconductor fell 14% in early trading after the company cut its sales outlook."],
        "Kestrel Semiconductor stock dropped 14 percent in early trading once the company lowered its sales outlook.",
    ),
    (
        "business",
        [
            "Vantage Air will add 22 routes from its Denver hub next summer.",
            "Vantage Air said the expansion requires 300 new pilots and flight attendants.",
        ],
        "Vantage Air is adding 22 routes out of its Denver hub next summer, an expansion the airline says "
        "needs 300 new pilots and flight attendants.",
    ),
    (
        "business",
        ["Marlow Retail will close 45 stores in the United Kingdom after a decline in footfall."],
        "After footfall declined, Marlow Retail said it would shut 45 of its stores in the United Kingdom.",
    ),
    (
        "business",
        ["Quillon Pharma's board approved a share buyback of up to $2 billion over three years."],
        "The board of Quillon Pharma signed off on buying back up to $2bn of shares over three years.",
    ),
    (
        "business",
        [
            "Tidewater Energy's profit fell to $310 million from $540 million a year earlier.",
            "Tidewater Energy blamed lower natural gas prices for the decline.",
        ],
        "Lower natural gas prices pushed Tidewater Energy's profit down to $310 million, from $540 million "
        "a year before.",
    ),
    (
        "business",
        ["Ferro Logistics signed a ten-year lease for a 1.2 million square foot warehouse near Rotterdam."],
        "Ferro Logistics took a ten-year lease on a warehouse of 1.2 million square feet near Rotterdam.",
    ),
    (
        "business",
        ["Corvid Software said annual recurring revenue passed $1 billion for the first time."],
        "For the first time, Corvid Software's annual recurring revenue has topped $1 billion, the company said.",
    ),
    # --- Economy ---
    (
        "economy",
        [
            "Consumer prices rose 3.4% in the twelve months to September, down from 3.8% in August.",
            "The statistics office said food prices were the main reason inflation slowed.",
        ],
        "Annual inflation eased to 3.4 percent in September from 3.8 percent in August, with food prices "
        "doing most to slow it, the statistics office said.",
    ),
    (
        "economy",
        ["The central bank held its main interest rate at 4.25 percent for a third consecutive meeting."],
        "For a third straight meeting, the central bank kept its main interest rate at 4.25%.",
    ),
    (
        "economy",
        ["The unemployment rate fell to 4.1% in October as employers added 187,000 jobs."],
        "Employers added 187,000 jobs in October, bringing the unemployment rate down to 4.1%.",
    ),
    (
        "economy",
        ["Retail sales fell 0.6 percent in August, the steepest monthly drop since January."],
        "Retail sales declined 0.6% in August, their sharpest monthly fall since January.",
    ),
    (
        "economy",
        [
            "The government expects the economy to grow 1.8% next year.",
            "The finance ministry cut its growth forecast for this year to 0.9% from 1.3%.",
        ],
        "The finance ministry lowered its growth forecast for this year to 0.9% from 1.3%, while the government "
        "expects the economy to expand 1.8% next year.",
    ),
    (
        "economy",
        ["House prices rose 2.3 percent in the year to June, with the average home costing 287,000 pounds."],
        "The average home cost 287,000 pounds in June after house prices climbed 2.3% over the year.",
    ),
    (
        "economy",
        ["Exports of machinery to China dropped 11 percent in the first nine months of the year."],
        "In the first nine months of the year, machinery exports to China were down 11%.",
    ),
    (
        "economy",
        ["The trade deficit narrowed to $61.4 billion in July from $68.2 billion in June."],
        "July's trade deficit shrank to $61.4bn, from $68.2bn in June.",
    ),
    # --- Technology ---
    (
        "technology",
        [
            "Lumen Labs released Lumen-7, a language model with 70 billion parameters.",
            "Lumen-7 scored 82.4 percent on the MMLU benchmark, according to the company.",
        ],
        "Lumen Labs has released Lumen-7, a 70-billion-parameter language model that the company says scores "
        "82.4% on MMLU.",
    ),
    (
        "technology",
        ["Arcadia Systems' new data centre in Oregon will draw up to 300 megawatts of power."],
        "The data centre Arcadia Systems is building in Oregon will use as much as 300 megawatts of power.",
    ),
    (
        "technology",
        [
            "The messaging app Chirp now has 450 million monthly active users.",
            "Chirp added end-to-end encryption to group calls this month.",
        ],
        "Chirp, which now counts 450 million monthly active users, this month brought end-to-end encryption "
        "to group calls.",
    ),
    (
        "technology",
        ["A security flaw in the Fennec router firmware let attackers take control of about 64,000 devices."],
        "Attackers could take over roughly 64k devices through a security flaw in the Fennec router firmware.",
    ),
    (
        "technology",
        ["Tessellate's chip delivers twice the performance per watt of its predecessor, the company said."],
        "The company says Tessellate's new chip offers double the performance per watt of the previous generation.",
    ),
    (
        "technology",
        [
            "Quanta Robotics raised $150 million in a Series C round led by Harbor Ventures.",
            "Quanta Robotics said it would use the money to build warehouse robots.",
        ],
        "Harbor Ventures led a $150m Series C round in Quanta Robotics, which plans to spend the money building "
        "warehouse robots.",
    ),
    (
        "technology",
        ["The Osprey satellite internet service reached 2 million subscribers in 40 countries."],
        "Osprey's satellite internet service now has two million subscribers across 40 countries.",
    ),
    (
        "technology",
        ["Veridian's code assistant resolved 41.3% of issues on the SWE-bench Verified benchmark."],
        "On SWE-bench Verified, Veridian's code assistant resolved 41.3 percent of issues.",
    ),
    (
        "technology",
        [
            "The browser maker Pinecone will stop supporting third-party cookies in 2027.",
            "Pinecone said advertisers will be offered an aggregated measurement interface instead.",
        ],
        "Pinecone will end support for third-party cookies in 2027 and offer advertisers an aggregated "
        "measurement interface instead.",
    ),
    (
        "technology",
        ["Nimbus Cloud suffered an outage of about four hours that took down services in three regions."],
        "An outage at Nimbus Cloud lasting about four hours knocked out services in three regions.",
    ),
    (
        "technology",
        ["The Halcyon phone's battery lasts 31 hours of video playback in the company's tests."],
        "In the company's own tests the Halcyon phone's battery ran for 31 hours of video playback.",
    ),
    (
        "technology",
        [
            "Gridwise trained its forecasting model on 12 years of hourly electricity demand data.",
            "Gridwise said the model cut forecast errors by 18 percent compared with the utility's previous system.",
        ],
        "Trained on 12 years of hourly electricity demand data, Gridwise's forecasting model reduced forecast "
        "errors by 18% against the utility's previous system, the company said.",
    ),
    # --- AI research ---
    (
        "ai",
        [
            "The Sparrow-3B model matches the accuracy of models ten times its size on grade-school math.",
            "Sparrow-3B was trained on 1.5 trillion tokens of filtered web text.",
        ],
        "Trained on 1.5 trillion tokens of filtered web text, Sparrow-3B matches the grade-school math accuracy "
        "of models ten times its size.",
    ),
    (
        "ai",
        [
            "The authors report that distillation from a larger teacher improved the student's pass rate "
            "from 22% to 35%."
        ],
        "Distilling from a larger teacher lifted the student model's pass rate from 22% to 35%, the authors report.",
    ),
    (
        "ai",
        [
            "WebArena-Pro contains 812 tasks across shopping, forums, maps and code hosting sites.",
            "The best agent evaluated completed 31 percent of WebArena-Pro tasks.",
        ],
        "WebArena-Pro has 812 tasks spanning shopping, forums, maps and code hosting sites; the strongest agent "
        "tested finished 31% of them.",
    ),
    (
        "ai",
        ["Quantizing the model to 4 bits reduced memory use by 71 percent with less than one point of accuracy loss."],
        "Four-bit quantization cut the model's memory use by 71% while costing less than a point of accuracy.",
    ),
    (
        "ai",
        ["The reward model was trained on 240,000 human preference comparisons collected from 1,100 annotators."],
        "Some 1,100 annotators supplied the 240,000 human preference comparisons used to train the reward model.",
    ),
    (
        "ai",
        [
            "Retrieval-augmented generation reduced hallucinated citations by 43 percent in the study.",
            "The study evaluated answers to 3,000 legal questions.",
        ],
        "Across 3,000 legal questions, retrieval-augmented generation cut hallucinated citations by 43%.",
    ),
    (
        "ai",
        ["The vision model labels satellite images of crops with 94.1% accuracy on the held-out test set."],
        "On the held-out test set, the vision model labelled crop satellite images with 94.1 percent accuracy.",
    ),
    (
        "ai",
        ["Training the 13B model took 21 days on 512 GPUs."],
        "The 13B model needed 21 days of training on 512 GPUs.",
    ),
    (
        "ai",
        [
            "Speculative decoding made generation 2.8x faster without changing outputs.",
            "The speedup was measured on an 8-GPU server with batch size 1.",
        ],
        "Measured on an 8-GPU server at batch size 1, speculative decoding sped generation up 2.8x with "
        "identical outputs.",
    ),
    (
        "ai",
        ["The benchmark's authors found that 17% of its test questions had leaked into common training corpora."],
        "Some 17 percent of the benchmark's test questions had leaked into common training corpora, its authors found.",
    ),
    (
        "ai",
        ["A curriculum that starts with short tasks raised success on long tasks from 9.5% to 26.0%."],
        "Starting the curriculum with short tasks raised long-task success from 9.5% to 26%.",
    ),
    # --- Science ---
    (
        "science",
        [
            "Astronomers detected water vapour in the atmosphere of the exoplanet K2-18b.",
            "K2-18b orbits a red dwarf star about 120 light-years from Earth.",
        ],
        "Water vapour has been detected in the atmosphere of K2-18b, an exoplanet orbiting a red dwarf star "
        "some 120 light-years from Earth, astronomers say.",
    ),
    (
        "science",
        ["The fossil skull, found in Morocco, is estimated to be about 315,000 years old."],
        "Found in Morocco, the fossil skull is thought to be roughly 315,000 years old.",
    ),
    (
        "science",
        ["Coral cover on the northern reef fell by 27 percent between 2022 and 2025."],
        "Between 2022 and 2025, coral cover on the northern reef declined 27%.",
    ),
    (
        "science",
        [
            "The team sequenced the genomes of 1,200 wheat varieties.",
            "The researchers identified 37 genes linked to drought tolerance.",
        ],
        "After sequencing the genomes of 1,200 wheat varieties, the researchers identified 37 genes linked "
        "to drought tolerance.",
    ),
    (
        "science",
        ["The probe will reach Jupiter's moon Europa in April 2030 after a journey of 2.6 billion kilometres."],
        "The probe is due at Europa, a moon of Jupiter, in April 2030, having travelled 2.6 billion kilometres.",
    ),
    (
        "science",
        ["Bee populations in the study area declined by a third over the decade, the survey found."],
        "The survey found that bee populations in the study area shrank by a third over the decade.",
    ),
    (
        "science",
        ["The new battery cathode retained 92 percent of its capacity after 1,000 charge cycles."],
        "After 1,000 charge cycles, the new battery cathode kept 92% of its capacity.",
    ),
    (
        "science",
        [
            "Glaciers in the Alps lost 4 percent of their remaining volume in 2025.",
            "Scientists attributed the loss to a hot summer and low winter snowfall.",
        ],
        "A hot summer and low winter snowfall cost glaciers in the Alps 4% of their remaining volume in 2025, "
        "scientists said.",
    ),
    (
        "science",
        ["The earthquake had a magnitude of 6.4 and struck at a depth of 10 kilometres."],
        "The magnitude 6.4 earthquake struck 10 kilometres below the surface.",
    ),
    (
        "science",
        ["The telescope's mirror is 6.5 metres across and made of 18 hexagonal segments."],
        "Made of 18 hexagonal segments, the telescope's mirror measures 6.5 metres across.",
    ),
    # --- Health ---
    (
        "health",
        [
            "In the trial of 4,300 adults, the vaccine was 86% effective against severe illness.",
            "The most common side effects were a sore arm and fatigue.",
        ],
        "The vaccine was 86 percent effective against severe illness in a trial of 4,300 adults; a sore arm "
        "and fatigue were the most common side effects.",
    ),
    (
        "health",
        ["Patients taking the drug lost an average of 15.2 percent of their body weight over 68 weeks."],
        "Over 68 weeks, patients on the drug lost 15.2% of their body weight on average.",
    ),
    (
        "health",
        ["Hospital waiting lists in the region grew to 7.6 million cases in August."],
        "The region's hospital waiting lists reached 7.6 million cases in August.",
    ),
    (
        "health",
        [
            "Measles cases in Europe rose to 58,000 last year, the highest number since 1997.",
            "Health officials blamed falling vaccination rates for the rise in measles cases.",
        ],
        "Europe recorded 58,000 measles cases last year, the most since 1997, which health officials blamed on "
        "falling vaccination rates.",
    ),
    (
        "health",
        ["The screening programme detected 1,340 cancers at an early stage in its first year."],
        "In its first year the screening programme found 1,340 cancers at an early stage.",
    ),
    (
        "health",
        ["The hospital group will spend 450 million euros on new operating theatres by 2029."],
        "By 2029, the hospital group plans to spend 450 million euros on new operating theatres.",
    ),
    (
        "health",
        ["Smoking rates among adults fell to 11.9 percent, a record low, the survey showed."],
        "Adult smoking rates dropped to a record low of 11.9%, according to the survey.",
    ),
    (
        "health",
        [
            "The app-based therapy reduced symptoms of insomnia in 61% of participants.",
            "The study followed 900 participants for six months.",
        ],
        "In a six-month study of 900 participants, the app-based therapy eased insomnia symptoms for 61% of them.",
    ),
    (
        "health",
        ["Average life expectancy rose to 81.3 years, recovering from the fall during the pandemic."],
        "Life expectancy has recovered from its pandemic fall, rising to an average of 81.3 years.",
    ),
    # --- Climate and energy ---
    (
        "climate",
        [
            "Solar panels supplied 21 percent of the country's electricity in June.",
            "The grid operator said it was the first month solar beat coal.",
        ],
        "Solar supplied 21% of the country's electricity in June, the first month it beat coal, the grid operator "
        "said.",
    ),
    (
        "climate",
        ["The wind farm off the coast of Norfolk will have 72 turbines and a capacity of 1.1 gigawatts."],
        "The offshore wind farm planned off Norfolk will have 72 turbines with 1.1 gigawatts of capacity.",
    ),
    (
        "climate",
        ["Global carbon dioxide emissions from fossil fuels reached 37.4 billion tonnes in 2025."],
        "Fossil-fuel carbon dioxide emissions worldwide hit 37.4 billion tonnes in 2025.",
    ),
    (
        "climate",
        [
            "The city will ban petrol and diesel cars from its centre from 2030.",
            "The city plans to plant 20,000 trees along its main roads.",
        ],
        "From 2030, petrol and diesel cars will be banned from the city centre, and the city plans to plant "
        "20,000 trees along its main roads.",
    ),
    (
        "climate",
        ["Arctic sea ice reached its smallest September extent on record at 3.9 million square kilometres."],
        "At 3.9 million square kilometres, Arctic sea ice hit its smallest September extent on record.",
    ),
    (
        "climate",
        ["The heatwave pushed temperatures in Seville to 46.2 degrees Celsius, a national record."],
        "Seville reached a record national temperature of 46.2 degrees Celsius during the heatwave.",
    ),
    (
        "climate",
        ["Heat pump sales rose 38 percent in the first half of the year as gas prices stayed high."],
        "With gas prices still high, heat pump sales climbed 38% in the first half of the year.",
    ),
    (
        "climate",
        [
            "The utility will retire its last coal plant in 2028.",
            "The utility will replace the plant with 800 megawatts of batteries and solar.",
        ],
        "The utility will close its last coal plant in 2028, replacing it with 800 megawatts of batteries and solar.",
    ),
    (
        "climate",
        ["Floods in the province displaced about 140,000 people and damaged 23,000 homes."],
        "Around 140,000 people were displaced and 23,000 homes damaged by floods in the province.",
    ),
    # --- Politics and public policy ---
    (
        "politics",
        [
            "Parliament passed the housing bill by 312 votes to 198.",
            "The housing bill requires councils to approve 300,000 new homes a year.",
        ],
        "Parliament approved the housing bill, which requires councils to sign off 300,000 new homes a year, "
        "by 312 votes to 198.",
    ),
    (
        "politics",
        ["Turnout in the regional election was 58.3 percent, up from 51.0 percent four years ago."],
        "Turnout in the regional election rose to 58.3% from 51% four years earlier.",
    ),
    (
        "politics",
        ["The government will raise the minimum wage to 12.60 euros an hour from January."],
        "From January the minimum wage will rise to 12.60 euros an hour, the government said.",
    ),
    (
        "politics",
        [
            "Mayor Elena Duarte proposed a 2.1 billion dollar budget for the city.",
            "Duarte's budget adds 400 police officers and cuts library hours.",
        ],
        "Mayor Elena Duarte proposed a $2.1 billion city budget that would add 400 police officers and cut "
        "library hours.",
    ),
    (
        "politics",
        ["The coalition agreement commits the new government to building 15 new hospitals by 2035."],
        "Under the coalition agreement, the new government has committed to building 15 new hospitals by 2035.",
    ),
    (
        "politics",
        ["Senator Marcus Hale said he would not seek re-election after 24 years in the Senate."],
        "After 24 years in the Senate, Senator Marcus Hale will not run for re-election, he said.",
    ),
    (
        "politics",
        ["The ministry received 18,500 responses to its consultation on school phone bans."],
        "Its consultation on banning phones in schools drew 18,500 responses, the ministry said.",
    ),
    (
        "politics",
        [
            "The treaty was signed by 46 countries in Geneva.",
            "The treaty bans the use of autonomous weapons without human control.",
        ],
        "Signed in Geneva by 46 countries, the treaty bans using autonomous weapons without human control.",
    ),
    # --- Courts and law ---
    (
        "law",
        [
            "The court fined Delmar Chemicals 3.5 million dollars for polluting the river.",
            "Delmar Chemicals said it would appeal the ruling.",
        ],
        "Delmar Chemicals, fined $3.5 million by the court for polluting the river, said it would appeal.",
    ),
    (
        "law",
        ["The appeals court upheld the 2019 ruling that the merger broke competition law."],
        "The appeals court upheld a 2019 ruling that the merger had broken competition law.",
    ),
    (
        "law",
        ["The former finance chief of Brava Holdings was sentenced to seven years in prison for fraud."],
        "A court sentenced Brava Holdings' former finance chief to seven years in prison for fraud.",
    ),
    (
        "law",
        ["The class action on behalf of 90,000 drivers was settled for 210 million dollars."],
        "The class action brought for 90,000 drivers ended in a $210 million settlement.",
    ),
    (
        "law",
        ["The data protection authority ordered Sparrowhawk Media to delete the records of 2.3 million users."],
        "Sparrowhawk Media was ordered by the data protection authority to delete 2.3 million users' records.",
    ),
    # --- Sport ---
    (
        "sport",
        [
            "Lena Morales won the Berlin Marathon in 2 hours 16 minutes 41 seconds.",
            "Morales's time was a course record.",
        ],
        "Lena Morales set a course record to win the Berlin Marathon in 2 hours 16 minutes 41 seconds.",
    ),
    (
        "sport",
        ["Harbor City beat Eastfield 3-1, with Tomas Reyes scoring twice."],
        "Tomas Reyes scored twice as Harbor City beat Eastfield 3-1.",
    ),
    (
        "sport",
        ["The club sold its striker to Porto for a fee of 48 million euros."],
        "The club sold its striker to Porto for 48 million euros.",
    ),
    (
        "sport",
        [
            "The league's average attendance rose to 41,200 this season.",
            "The league said ticket prices were frozen for the second year.",
        ],
        "Average attendance in the league climbed to 41,200 this season as ticket prices were frozen for the "
        "second year, the league said.",
    ),
    (
        "sport",
        ["Anika Shah became the youngest player to reach the quarter-finals, at 16 years old."],
        "At 16 years old, Anika Shah is the youngest player to have reached the quarter-finals.",
    ),
    (
        "sport",
        ["The stadium renovation will cost 620 million dollars and add 8,000 seats."],
        "The renovation of the stadium will add 8,000 seats at a cost of $620 million.",
    ),
    # --- Transport and infrastructure ---
    (
        "transport",
        [
            "The high-speed line will cut the journey between the two cities to 52 minutes.",
            "Construction of the line is expected to cost 14 billion euros.",
        ],
        "The high-speed line, expected to cost 14 billion euros to build, will bring the journey between the "
        "two cities down to 52 minutes.",
    ),
    (
        "transport",
        ["The airport handled 61.7 million passengers last year, a record."],
        "A record 61.7 million passengers passed through the airport last year.",
    ),
    (
        "transport",
        ["The bridge will be closed to traffic for 18 months for repairs starting in March."],
        "Starting in March, the bridge will close to traffic for 18 months of repairs.",
    ),
    (
        "transport",
        [
            "Electric buses now make up 35 percent of the city's fleet.",
            "The city aims for a fully electric bus fleet by 2032.",
        ],
        "Electric buses account for 35% of the city's fleet, which it aims to make fully electric by 2032.",
    ),
    (
        "transport",
        ["Rail ridership recovered to 94 percent of its pre-pandemic level in September."],
        "In September rail ridership reached 94% of its pre-pandemic level.",
    ),
    # --- Education and labour ---
    (
        "education",
        [
            "The university will freeze tuition at 9,250 pounds for two more years.",
            "The university said international applications fell 8 percent.",
        ],
        "The university is keeping tuition frozen at 9,250 pounds for two more years after international "
        "applications fell 8%.",
    ),
    (
        "education",
        ["Teachers in the state will receive a pay rise of 5.5 percent this year."],
        "The state's teachers will get a 5.5% pay rise this year.",
    ),
    (
        "education",
        ["Reading scores among nine-year-olds dropped 5 points between 2020 and 2024."],
        "Between 2020 and 2024, reading scores for nine-year-olds fell by 5 points.",
    ),
    (
        "labour",
        [
            "Dock workers at 14 ports began a 72-hour strike over pay.",
            "The union is asking for a 9 percent raise.",
        ],
        "Dock workers at 14 ports started a 72-hour strike over pay, with their union seeking a 9% raise.",
    ),
    (
        "labour",
        ["Average weekly earnings grew 4.8% in the three months to August."],
        "In the three months to August, average weekly earnings grew 4.8 percent.",
    ),
    (
        "labour",
        ["The carmaker agreed to a four-day week for 6,000 factory workers without a cut in pay."],
        "Some 6,000 factory workers at the carmaker will move to a four-day week with no cut in pay.",
    ),
    # --- Space ---
    (
        "space",
        [
            "The Aurora rocket carried 24 satellites into orbit on its third flight.",
            "The rocket's first stage landed on a drone ship in the Atlantic.",
        ],
        "On its third flight the Aurora rocket put 24 satellites into orbit, and its first stage landed on a "
        "drone ship in the Atlantic.",
    ),
    (
        "space",
        ["The lunar lander will carry 12 experiments to the Moon's south pole in 2027."],
        "In 2027 the lunar lander will deliver 12 experiments to the south pole of the Moon.",
    ),
    # --- Agriculture and food ---
    (
        "agriculture",
        [
            "The wheat harvest is forecast at 78 million tonnes, 6% below last year.",
            "The agriculture ministry blamed a dry spring for the smaller harvest.",
        ],
        "A dry spring means the wheat harvest is forecast at 78 million tonnes, 6 percent below last year, "
        "the agriculture ministry said.",
    ),
    (
        "agriculture",
        ["Cocoa prices rose above 9,000 dollars a tonne for the first time."],
        "For the first time, cocoa prices climbed above $9,000 a tonne.",
    ),
    (
        "agriculture",
        ["The dairy cooperative will pay farmers 41 cents per litre of milk from next month."],
        "From next month the dairy cooperative will pay farmers 41 cents for each litre of milk.",
    ),
    # --- Housing and cities ---
    (
        "housing",
        [
            "Average rents in the capital rose 7.9% over the past year.",
            "Rents in the capital now take up 44 percent of a typical tenant's income.",
        ],
        "Rents in the capital climbed 7.9% over the past year and now take 44% of a typical tenant's income.",
    ),
    (
        "housing",
        ["Construction started on 1,450 social homes in the city in 2025, the most in a decade."],
        "Building began on 1,450 social homes in the city in 2025, more than in any year in the past decade.",
    ),
    # --- Culture and media ---
    (
        "culture",
        [
            "The film earned $182 million worldwide in its opening weekend.",
            "It was the biggest opening of the year for an animated film.",
        ],
        "With $182 million worldwide in its opening weekend, the film had the year's biggest opening for an "
        "animated film.",
    ),
    (
        "culture",
        ["The museum drew 2.4 million visitors last year, 30 percent more than in 2024."],
        "Last year the museum welcomed 2.4 million visitors, up 30% on 2024.",
    ),
    (
        "culture",
        ["The streaming service Corvina lost 1.1 million subscribers after raising prices."],
        "Corvina, the streaming service, shed 1.1 million subscribers after it raised prices.",
    ),
    (
        "culture",
        [
            "The newspaper will end its print edition in March after 143 years.",
            "The newspaper's digital subscriptions passed 250,000.",
        ],
        "After 143 years, the newspaper will stop printing in March; its digital subscriptions have passed 250,000.",
    ),
    # --- Summaries without figures ---
    (
        "policy",
        [
            "The regulator said banks must publish how they test their lending algorithms for bias.",
            "The rules apply to banks with more than one million retail customers.",
        ],
        "Banks with over a million retail customers will have to publish how they test lending algorithms for "
        "bias, the regulator said.",
    ),
    (
        "ai",
        [
            "The authors argue that evaluation suites for coding agents reward memorised solutions.",
            "They propose rotating hidden test sets that change every quarter.",
        ],
        "Evaluation suites for coding agents reward memorised solutions, the authors argue, proposing hidden "
        "test sets that rotate every quarter.",
    ),
    (
        "technology",
        [
            "The operating system update adds passkey support and removes the legacy password manager.",
        ],
        "The operating system update brings passkey support and drops the legacy password manager.",
    ),
    (
        "science",
        [
            "The researchers found that octopuses in the study solved puzzles faster after watching another octopus.",
        ],
        "Octopuses in the study solved puzzles faster once they had watched another octopus do so, "
        "the researchers found.",
    ),
    (
        "health",
        [
            "The health agency recommends that adults over 75 receive a booster dose each autumn.",
        ],
        "Adults over 75 should get a booster dose every autumn, the health agency recommends.",
    ),
    (
        "business",
        [
            "Kestrel Semiconductor named Priya Raman as chief executive, replacing founder Tom Ellery.",
            "Raman previously ran the company's automotive chip division.",
        ],
        "Kestrel Semiconductor has appointed Priya Raman, who previously ran its automotive chip division, "
        "as chief executive in place of founder Tom Ellery.",
    ),
    (
        "ai",
        [
            "The agent framework lets a planner model delegate subtasks to smaller executor models.",
            "Delegation lowered the cost per task while keeping success rates similar.",
        ],
        "In the agent framework a planner model hands subtasks to smaller executor models, which lowered the "
        "cost of each task without hurting success rates.",
    ),
    (
        "climate",
        [
            "The insurers' report warns that wildfire risk is making homes in parts of California uninsurable.",
        ],
        "Wildfire risk is making homes in parts of California uninsurable, the insurers' report warns.",
    ),
    # --- Looser paraphrases: synonyms and reordering, the hard side for a lexical method ---
    (
        "business",
        ["The retailer will cut 600 jobs at its head office as sales slow."],
        "Slowing sales have led the retailer to announce 600 redundancies at its headquarters.",
    ),
    (
        "economy",
        ["Factory output shrank for the fifth month in a row in November."],
        "Manufacturing production contracted in November, the fifth consecutive monthly decline.",
    ),
    (
        "technology",
        ["The startup's app helps farmers detect crop disease from photos taken with a phone."],
        "Farmers can spot crop disease by photographing plants with a phone, using the startup's app.",
    ),
    (
        "health",
        ["Doctors at the clinic saw a sharp increase in children with respiratory infections this winter."],
        "The clinic's doctors treated far more children with respiratory infections this winter.",
    ),
    (
        "science",
        ["Researchers discovered a new species of frog in the cloud forests of Ecuador."],
        "A previously unknown frog species has been found in Ecuador's cloud forests.",
    ),
    (
        "politics",
        ["The prime minister fired the interior minister after a row over immigration policy."],
        "After clashing with him over immigration policy, the prime minister dismissed the interior minister.",
    ),
    (
        "climate",
        ["Drought has lowered the reservoir to its lowest level since records began."],
        "The drought has drained the reservoir to a record low.",
    ),
    (
        "sport",
        ["The coach resigned after the team lost six matches in a row."],
        "Six straight defeats prompted the coach to step down.",
    ),
    (
        "ai",
        ["The model refuses fewer harmless requests than its predecessor while blocking as many harmful ones."],
        "Compared with the previous version, the model turns down fewer harmless requests but still blocks "
        "harmful ones just as often.",
    ),
    (
        "transport",
        ["The airline grounded its fleet of 30 regional jets for engine inspections."],
        "All 30 of the airline's regional jets were taken out of service so their engines could be inspected.",
    ),
    (
        "law",
        ["The judge ruled that the company had misled investors about its finances."],
        "The company deceived investors about its financial position, the judge found.",
    ),
    (
        "education",
        ["Fewer students chose to study foreign languages at university this year."],
        "University enrolment in foreign-language courses fell this year.",
    ),
    (
        "culture",
        ["The band cancelled the rest of its tour because the singer is ill."],
        "The singer's illness has forced the band to call off the remainder of its tour.",
    ),
    (
        "housing",
        ["Mortgage approvals rose for the third month running as interest rates eased."],
        "Easing interest rates pushed mortgage approvals up for a third consecutive month.",
    ),
    (
        "business",
        ["The brewer said higher barley costs squeezed its profit margin."],
        "Pricier barley ate into the brewer's margins, the company said.",
    ),
]

# Hand-written unsupported cases: (kind, claims, text). Mistakes a mutation cannot make.
UNSUPPORTED: list[tuple[str, list[str], str]] = [
    (
        "unknown_number",
        ["Northwind Traders reported higher third-quarter revenue, helped by online orders."],
        "Northwind Traders reported higher third-quarter revenue, helped by a 40% jump in online orders.",
    ),
    (
        "unknown_number",
        ["The central bank kept interest rates unchanged, citing uncertainty about energy prices."],
        "The central bank kept interest rates unchanged at 4.5%, citing uncertainty about energy prices.",
    ),
    (
        "unknown_number",
        ["Lumen Labs released a new language model that it says is better at math."],
        "Lumen Labs released a new 70-billion-parameter language model that it says is better at math.",
    ),
    (
        "unknown_number",
        ["The vaccine was effective against severe illness in the trial."],
        "The vaccine was 95% effective against severe illness in the trial.",
    ),
    (
        "unknown_number",
        ["The union called a strike at the ports over pay."],
        "The union called a strike at 14 ports over pay.",
    ),
    (
        "changed_number",
        ["ProgAgent-14B reached a 30.7% pass rate on LOCA-bench at a 64k-token environment state."],
        "ProgAgent-14B reached a 37.0% pass rate on LOCA-bench at a 64k-token environment state.",
    ),
    (
        "changed_number",
        ["ProgAgent-14B reached a 30.7% pass rate on LOCA-bench at a 64k-token environment state."],
        "ProgAgent-14B reached a 30.7% pass rate on LOCA-bench at a 32k-token environment state.",
    ),
    (
        "changed_number",
        ["The trade deficit narrowed to $61.4 billion in July."],
        "The trade deficit narrowed to $61.4 million in July.",
    ),
    (
        "changed_number",
        ["Patients taking the drug lost an average of 15.2 percent of their body weight over 68 weeks."],
        "Patients taking the drug lost an average of 15% of their body weight over 68 weeks.",
    ),
    (
        "changed_number",
        ["Dock workers at 14 ports began a 72-hour strike over pay."],
        "Dock workers at fourteen ports began a 48-hour strike over pay.",
    ),
    (
        "changed_number",
        ["CoSIR achieved the highest aggregate score across seven unseen collaboration tasks on three backbones."],
        "CoSIR achieved the highest aggregate score across nine unseen collaboration tasks on three backbones.",
    ),
    (
        "swapped_name",
        ["Lumen-7 scored 82.4 percent on the MMLU benchmark, according to the company."],
        "Lumen-7 scored 82.4 percent on the GSM8K benchmark, according to the company.",
    ),
    (
        "swapped_name",
        ["The club sold its striker to Porto for a fee of 48 million euros."],
        "The club sold its striker to Benfica for a fee of 48 million euros.",
    ),
    (
        "swapped_name",
        ["In the Deep Research setting, TreeOPSD lifts Qwen3-30B-A3B-Thinking-2507 by 4.97 points."],
        "In the Deep Research setting, TreeOPSD lifts Llama-3.1-70B by 4.97 points.",
    ),
    (
        "swapped_name",
        ["Harbor Ventures led a $150 million Series C round in Quanta Robotics."],
        "Sequoia Capital led a $150 million Series C round in Quanta Robotics.",
    ),
    (
        "other_claim",
        [
            "The authors note that executable tool-calling code must run in a sandbox, which adds engineering "
            "overhead compared with direct tool calling."
        ],
        "Cross-harness experiments showed programmatic-tool-calling models outperforming direct-tool-calling "
        "models under both evaluation interfaces.",
    ),
    (
        "other_claim",
        ["Rubrics are generated per task and refined during training."],
        "Stage-Structured GRPO enables finer-grained credit assignment across the semantic stages of a research "
        "trajectory.",
    ),
    (
        "other_claim",
        ["The museum will extend its opening hours on Fridays."],
        "The museum drew record visitor numbers last year after a blockbuster exhibition on Roman glass.",
    ),
    (
        "half_support",
        ["Solar panels supplied a fifth of the country's electricity in June."],
        "Solar panels supplied a fifth of the country's electricity in June. Wind turbines, meanwhile, were "
        "idle for much of the month because of unusually calm weather over the North Sea.",
    ),
    (
        "half_support",
        ["The messaging app Chirp added end-to-end encryption to group calls this month."],
        "Chirp added end-to-end encryption to group calls this month. Regulators in Brussels are investigating "
        "whether the app shares contact lists with advertisers.",
    ),
    (
        "half_support",
        ["The probe will reach Jupiter's moon Europa in April 2030."],
        "The probe will reach Jupiter's moon Europa in April 2030, where it will drill through the ice shell "
        "to sample the ocean beneath and search for microbial life.",
    ),
]

# Names to swap in, by the kind of name they replace; none appears in any case above.
SWAP_NAMES = {
    "company": ["Acme Dynamics", "Globex", "Initech", "Umbrella Corp", "Stark Industries", "Wayne Enterprises"],
    "person": ["Jonas Berg", "Amara Okafor", "Luis Fernandez", "Mei Tanaka", "Oliver Grant", "Sofia Rossi"],
    "place": ["Lisbon", "Nairobi", "Osaka", "Calgary", "Valparaiso", "Tbilisi"],
    "model": ["Falcon-40B", "GPT-4o", "Mistral-7B", "Gemma-2B", "Phi-3", "HumanEval"],
}

# Clauses that add a figure no claim has, inserted before a passage's first full stop.
ADDED_FIGURES = [
    " in 2019",
    ", up 12% from a year earlier",
    " across 17 markets",
    " (about 3,400 of them)",
    ", a $40 million effort",
    " over 6 months",
    ", or 2.5 times the usual level",
    " for the 3rd time",
]
