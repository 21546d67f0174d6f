"""The life-at-the-company page: how we work and what we offer."""

from rcxsite.content.types import Section

LIFE_AT: tuple[Section, ...] = (
    Section("Small teams, real ownership",
            "Teams of four to seven people own a product from discovery to production."),
    Section("Time to learn",
            "Every engineer has ten learning days a year and a budget for courses and books."),
    Section("Flexible by default",
            "Work from our London studio, from home, or a mix: you agree it with your team."),
    Section("Benefits",
            "What everyone gets, from the first day.",
            points=("28 days of holiday plus bank holidays", "Private health insurance",
                    "Pension with 6% employer contribution", "A new laptop of your choice")),
)
