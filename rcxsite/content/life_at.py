"""The life-at-the-company page: how we work and what we offer."""

from rcxsite.content.types import Section

LIFE_AT: tuple[Section, ...] = (
    Section(
        "Small teams, real ownership",
        "Teams of four to seven people own a product from discovery to production. You talk to "
        "clients directly, help shape the plan and see your work used, rather than taking "
        "tickets from a distant account manager.",
    ),
    Section(
        "Time to learn",
        "Every engineer has ten learning days a year and a budget of £1,500 for courses, "
        "conferences and books. Friday lunchtime talks let colleagues share what they learned "
        "on their last project, good and bad.",
    ),
    Section(
        "Flexible by default",
        "Work from our London studio, from home, or a mix: you agree it with your team. Core "
        "hours are 10 a.m. to 4 p.m., and we plan client work so that late nights are the "
        "rare exception, not the culture.",
    ),
    Section(
        "Hack days and the yearly retreat",
        "Twice a year we stop client work for a 24-hour hack day, and several of our products "
        "started as hack-day prototypes. Every September the whole company spends three days "
        "together in the Lake District.",
    ),
    Section(
        "Clear career paths",
        "Our engineering and design career frameworks are published internally, so you know "
        "what the next level looks like and how to get there. Everyone has a mentor outside "
        "their project team and a written review twice a year.",
    ),
    Section(
        "Benefits",
        "From your first day: 28 days of holiday plus bank holidays, private health insurance, "
        "a pension with a 6% employer contribution and a new laptop of your choice.",
        points=(
            "28 days of holiday plus bank holidays",
            "Private health insurance",
            "Pension with 6% employer contribution",
            "A new laptop of your choice",
            "£1,500 a year for learning",
            "Two paid volunteering days a year",
            "Cycle to Work scheme and season-ticket loans",
        ),
    ),
)
