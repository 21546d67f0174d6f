"""/staff/analytics: where visitors come from and which of them become requests and won
deals, for admins and sales (the server checks every event).

The chart is drawn with plain elements (no chart library reaches any page) and hidden
from screen readers, which read the same figures in the table after it."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from rcxsite.analytics.dashboard import GOALS, TABLES
from rcxsite.analytics.inputs import PERIODS
from rcxsite.components.form_fields import control_attrs, form, labelled
from rcxsite.components.staff_ui import data_table, notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.state.staff.analytics import METRICS
from rcxsite.state.staff.analytics import StaffAnalyticsState as State

_GOAL_TABLES = ("entry", "source", "campaign")


def _period_controls() -> rx.Component:
    return rx.el.div(
        labelled(
            "Period",
            "analytics-period",
            rx.el.select(
                *[rx.el.option(label, value=key) for key, label in PERIODS.items()],
                name="period",
                value=State.period,
                on_change=State.choose_period,
                **control_attrs("analytics-period"),
            ),
        ),
        rx.cond(
            State.period == "custom",
            form(
                labelled(
                    "From",
                    "analytics-start",
                    rx.el.input(
                        type="date",
                        name="start",
                        default_value=State.start,
                        **control_attrs("analytics-start"),
                    ),
                ),
                labelled(
                    "To",
                    "analytics-end",
                    rx.el.input(
                        type="date",
                        name="end",
                        default_value=State.end,
                        **control_attrs("analytics-end"),
                    ),
                ),
                rx.el.button("Apply", type="submit", class_name="button button-primary"),
                on_submit=State.apply_dates,
                reset_on_submit=False,
                class_name="analytics-dates",
            ),
        ),
        rx.el.p(
            "Visitors now (last 5 minutes): ",
            rx.el.strong(State.visitors_now),
            class_name="analytics-now",
        ),
        class_name="analytics-controls",
    )


def _chips() -> rx.Component:
    return rx.cond(
        State.chips.length() > 0,
        rx.el.div(
            rx.el.span("Filtered by", class_name="analytics-chips-label"),
            rx.foreach(
                State.chips,
                lambda chip: rx.el.button(
                    chip["text"],
                    rx.el.span(" ×", aria_hidden="true"),
                    type="button",
                    class_name="staff-chip",
                    aria_label="Remove filter " + chip["text"],
                    on_click=State.unfilter(chip["dimension"]),
                ),
            ),
            class_name="staff-chips",
        ),
    )


def _figures() -> rx.Component:
    return rx.el.ul(
        rx.foreach(
            State.figures,
            lambda figure: rx.el.li(
                rx.el.span(figure["name"], class_name="analytics-figure-name"),
                rx.el.span(figure["value"], class_name="analytics-figure-value"),
                rx.el.span(
                    figure["change"],
                    # Good or bad news in words, not only in colour.
                    rx.cond(figure["tone"] != "", ", " + figure["tone"], ""),
                    rx.el.span(" than the period before", class_name="sr-only"),
                    class_name="analytics-change analytics-change-" + figure["tone"],
                ),
                class_name="analytics-figure",
            ),
        ),
        class_name="analytics-figures",
        aria_label="Figures",
    )


def _metric_switch() -> rx.Component:
    """Which figure the chart draws; the table under it holds all three."""
    return rx.el.div(
        *[
            rx.el.button(
                label,
                type="button",
                class_name="staff-chip",
                aria_pressed=rx.cond(State.metric == key, "true", "false"),
                on_click=State.choose_metric(key),
            )
            for key, label in METRICS.items()
        ],
        role="group",
        aria_label="Chart shows",
        class_name="staff-chips analytics-metrics",
    )


def _chart() -> rx.Component:
    """Bars with a y axis (the peak, its half, 0), the first, middle and last bucket
    under them, and each bar's figure on hover."""
    return rx.el.section(
        rx.el.h2(State.metric_label, " over time", class_name="staff-subtitle"),
        _metric_switch(),
        rx.el.div(
            rx.el.div(
                rx.foreach(State.axis, lambda mark: rx.el.span(mark)),
                class_name="analytics-y-axis",
            ),
            rx.el.div(
                rx.foreach(
                    State.chart,
                    lambda bar: rx.el.div(
                        rx.el.div(class_name="analytics-bar", style={"height": bar["height"]}),
                        rx.el.span(bar["tip"], class_name="analytics-tip"),
                        class_name="analytics-column",
                    ),
                ),
                class_name="analytics-chart",
            ),
            rx.el.div(
                rx.foreach(State.x_labels, lambda label: rx.el.span(label)),
                class_name="analytics-axis",
            ),
            aria_hidden="true",
            class_name="analytics-plot",
        ),
        rx.el.details(
            rx.el.summary("The chart as a table", class_name="staff-filters-toggle"),
            data_table(
                "Page views, visitors and quote requests over time",
                ("Time", "Page views", "Visitors", "Quote requests"),
                State.series,
                lambda point: (
                    point["label"],
                    point["views"],
                    point["visitors"],
                    point["requests"],
                ),
                empty="No page views in this period.",
            ),
            class_name="analytics-chart-data",
        ),
        class_name="analytics-section analytics-over-time",
    )


def _goals() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Goals", class_name="staff-subtitle"),
        rx.cond(State.goals_note != "", rx.el.p(State.goals_note, class_name="staff-note")),
        rx.el.p(
            "Each count includes what no counted visit brought (visitors who asked not to "
            "be counted, requests through the API): that part is shown as not attributed "
            "and left out of the conversion rate, which is of the visitors. Quote requests "
            "are every request but spam, with or without a call, as in the inbox.",
            class_name="staff-note",
        ),
        data_table(
            "Goals",
            ("Goal", "Count", "Not attributed", "Conversion rate"),
            State.goals,
            lambda goal: (goal["name"], goal["count"], goal["not_attributed"], goal["rate"]),
            empty="No goals yet.",
        ),
        rx.el.h3("From landing to Won", class_name="analytics-funnel-title"),
        rx.el.ol(
            rx.foreach(
                State.funnel,
                lambda step: rx.el.li(
                    rx.el.span(step["name"], class_name="analytics-step-name"),
                    rx.el.span(step["count"], step["share"], class_name="analytics-step-count"),
                    rx.el.span(
                        rx.el.span(class_name="analytics-step-bar", style={"width": step["width"]}),
                        aria_hidden="true",
                        class_name="analytics-step-track",
                    ),
                    class_name="analytics-step",
                ),
            ),
            class_name="analytics-funnel",
        ),
        rx.cond(
            State.not_attributed_note != "",
            rx.el.p(State.not_attributed_note, class_name="staff-note"),
        ),
        class_name="analytics-section",
    )


def _table(name: str) -> rx.Component:
    title, one, column = TABLES[name]
    rows = getattr(State, name)
    counts = ("Visitors", "Views") if column is None else ("Visitors", "Visits", "Views")
    goals = (*GOALS, "Conversion") if name in _GOAL_TABLES else ()

    def cells(row: ObjectVar[dict[str, str]]) -> list[rx.Component | rx.Var[str]]:
        return [
            rx.el.button(
                rx.el.span(row["filter_label"] + " ", class_name="sr-only"),
                row["label"],
                type="button",
                class_name="analytics-filter",
                on_click=State.filter_by(name, row["key"]),
            ),
            *[row[count.lower()] for count in counts],
            *[row["conversion" if goal == "Conversion" else goal] for goal in goals],
        ]

    return rx.el.section(
        rx.el.div(
            rx.el.h2(title, class_name="staff-subtitle"),
            rx.el.button(
                "CSV",
                type="button",
                class_name="button button-outline analytics-csv",
                aria_label=f"Download {title} as CSV",
                on_click=State.export(name),
            ),
            class_name="analytics-table-heading",
        ),
        data_table(title, (one, *counts, *goals), rows, cells, empty="Nothing in this period."),
        class_name="analytics-section" + (" analytics-wide" if goals else ""),
    )


def staff_analytics_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("Analytics"),
        notices(State.error, ""),
        _period_controls(),
        _chips(),
        rx.el.p(State.updated, role="status", class_name="sr-only"),
        rx.el.h2(
            "Overview", id="analytics-figures-heading", tab_index=-1, class_name="staff-subtitle"
        ),
        rx.el.p(
            State.period_label,
            ", compared with the same span of the period before. Visitors are counted per "
            "day: someone who comes back on another day counts again.",
            class_name="staff-note",
        ),
        _figures(),
        _chart(),
        _goals(),
        rx.el.div(*[_table(name) for name in TABLES], class_name="analytics-tables"),
        class_name="analytics",
    )
