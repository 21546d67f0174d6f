"""Subscription plans. Choosing one opens /log-in with its ids in the address, and the
registration there sends them."""

from rcxsite.content.types import Plan, PlanDuration

DURATIONS: tuple[PlanDuration, ...] = (
    PlanDuration(id=1, label="Monthly", months=1),
    PlanDuration(id=2, label="Yearly", months=12),
)

PLANS: tuple[Plan, ...] = (
    Plan(
        id=101,
        name="Starter",
        project_id=11,
        monthly_price=49,
        summary="For small teams getting their first product online.",
        features=("1 product", "Up to 5 users", "Email support"),
    ),
    Plan(
        id=102,
        name="Growth",
        project_id=12,
        monthly_price=149,
        highlighted=True,
        summary="For growing companies with several products and integrations.",
        features=("5 products", "Up to 25 users", "Priority support", "Integrations"),
    ),
    Plan(
        id=103,
        name="Scale",
        project_id=13,
        monthly_price=449,
        summary="For organisations that need single sign-on, audits and an SLA.",
        features=("Unlimited products", "Unlimited users", "99.9% SLA", "Single sign-on"),
    ),
)
