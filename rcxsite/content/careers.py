"""Open positions: listed on /careers, each with its page at /careers/<slug>. A new
opening is one entry here."""

from datetime import date

from rcxsite.content.types import Opening

APPLY_EMAIL = "careers@rcx.example"

OPENINGS: tuple[Opening, ...] = (
    Opening(
        title="Senior Python Engineer",
        team="Software Development",
        location="London or remote (UK)",
        kind="Full-time · £75,000–£90,000",
        summary="Design and build back-end services for clients in finance and healthcare.",
        requirements=(
            "5+ years of Python, ideally with Django or FastAPI",
            "PostgreSQL and experience on AWS or Azure",
            "Comfortable leading technical decisions with clients",
            "Clear writing: design notes, pull requests and documentation",
        ),
        responsibilities=(
            "Design and build APIs and data pipelines with our clients' teams",
            "Lead technical decisions and write them down",
            "Review code and pair with engineers earlier in their careers",
            "Keep services fast, observable and secure in production",
        ),
        employment_type="FULL_TIME",
        pay=(75_000, 90_000),
        pay_per="YEAR",
        office="London",
        remote=True,
        posted=date(2026, 11, 2),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="React Front-end Developer",
        team="Web Development",
        location="Remote (UK)",
        kind="Full-time · £55,000–£68,000",
        summary="Build fast, accessible interfaces with React and TypeScript.",
        requirements=(
            "3+ years of React and TypeScript in production",
            "Working knowledge of WCAG 2.2 and testing with screen readers",
            "Testing habits: unit, component and end-to-end tests",
            "An eye for performance and Core Web Vitals",
        ),
        responsibilities=(
            "Build interfaces in React and TypeScript from design to production",
            "Make every screen work with a keyboard and a screen reader",
            "Write unit, component and end-to-end tests",
            "Measure and improve load times on real phones",
        ),
        employment_type="FULL_TIME",
        pay=(55_000, 68_000),
        pay_per="YEAR",
        office="",
        remote=True,
        posted=date(2026, 11, 9),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="DevOps Engineer",
        team="DevOps",
        location="London, hybrid",
        kind="Full-time · £70,000–£85,000",
        summary="Run Kubernetes platforms and delivery pipelines for our client projects.",
        requirements=(
            "Terraform or Pulumi for infrastructure as code",
            "Kubernetes in production, on EKS, AKS or GKE",
            "CI/CD with GitHub Actions or GitLab CI",
            "On-call experience, and a calm approach to incidents",
        ),
        responsibilities=(
            "Run Kubernetes platforms for client projects",
            "Build delivery pipelines that teams trust",
            "Write infrastructure as code, reviewed like any code",
            "Take part in an on-call rota with clear runbooks",
        ),
        employment_type="FULL_TIME",
        pay=(70_000, 85_000),
        pay_per="YEAR",
        office="London",
        remote=False,
        posted=date(2026, 10, 26),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="Machine Learning Engineer",
        team="AI & Machine Learning",
        location="London, hybrid",
        kind="Full-time · £72,000–£88,000",
        summary="Take document-processing and forecasting models from notebook to production.",
        requirements=(
            "3+ years building and deploying models in Python",
            "PyTorch or scikit-learn, and MLflow or a similar tracking tool",
            "Experience with large language models and retrieval",
            "Ability to explain results to people who are not data scientists",
        ),
        responsibilities=(
            "Take models from notebook to production services",
            "Build document-processing and forecasting features",
            "Track experiments and monitor models once live",
            "Explain results and limits to clients",
        ),
        employment_type="FULL_TIME",
        pay=(72_000, 88_000),
        pay_per="YEAR",
        office="London",
        remote=False,
        posted=date(2026, 11, 16),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="Flutter Mobile Developer",
        team="Mobile App Development",
        location="Remote (UK)",
        kind="Full-time · £58,000–£70,000",
        summary="Build cross-platform apps for clients in healthcare, retail and automotive.",
        requirements=(
            "2+ years of Flutter and Dart, with apps live in both stores",
            "REST or GraphQL APIs, offline storage and push notifications",
            "Automated testing and release pipelines with Fastlane or Codemagic",
            "Some native Swift or Kotlin experience is a plus",
        ),
        responsibilities=(
            "Build cross-platform apps with Flutter and Dart",
            "Ship releases to both app stores through automated pipelines",
            "Work offline-first, with push notifications and secure storage",
            "Write widget and integration tests",
        ),
        employment_type="FULL_TIME",
        pay=(58_000, 70_000),
        pay_per="YEAR",
        office="",
        remote=True,
        posted=date(2026, 11, 12),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="Product Designer",
        team="UI UX",
        location="Remote (UK)",
        kind="Contract, 6 months · £500–£575 a day",
        summary="Lead research and design for a new patient-facing health app.",
        requirements=(
            "A portfolio of shipped products, with the reasoning behind them",
            "Planning and running user research and usability tests",
            "Building and maintaining design systems in Figma",
            "Designing for accessibility from the first sketch",
        ),
        responsibilities=(
            "Plan and run research with patients and clinicians",
            "Design flows, prototypes and the design system in Figma",
            "Test designs with users, including people using assistive technology",
            "Work day to day with the engineers who build them",
        ),
        employment_type="CONTRACTOR",
        pay=(500, 575),
        pay_per="DAY",
        office="",
        remote=True,
        posted=date(2026, 11, 19),
        open_until=date(2027, 2, 26),
    ),
    Opening(
        title="Graduate Software Engineer",
        team="Software Development",
        location="London studio",
        kind="Full-time, September start · £36,000",
        summary="Join our two-year graduate programme and ship client work from your first month.",
        requirements=(
            "A degree or bootcamp in computing, or equivalent self-taught experience",
            "Some projects you can show us, in any language",
            "Curiosity about how businesses use software",
            "Willingness to work in our London studio four days a week in year one",
        ),
        responsibilities=(
            "Ship client work from your first month, with a mentor",
            "Rotate through back-end, front-end and DevOps teams",
            "Learn in weekly sessions run by our engineers",
            "Present what you built to the company each quarter",
        ),
        employment_type="FULL_TIME",
        pay=(36_000, 36_000),
        pay_per="YEAR",
        office="London",
        remote=False,
        posted=date(2026, 10, 19),
        open_until=date(2027, 2, 26),
    ),
)


# How we hire, on every opening's page.
HIRING_STEPS: tuple[str, ...] = (
    "Apply: we reply within five working days",
    "A 30-minute call with the hiring manager about the role and what you want",
    "A practical exercise, paid, in working hours or a take-home of at most three hours",
    "A conversation with two future colleagues about that work",
    "An offer, with feedback whatever the outcome",
)


def opening_of(slug: str) -> Opening:
    return next(opening for opening in OPENINGS if opening.slug == slug)


def opening_of_slug(slug: str, today: date | None = None) -> Opening | None:
    """The listed opening of `slug` while it takes applications (to its `open_until`
    day), else None."""
    opening = next((opening for opening in OPENINGS if opening.slug == slug), None)
    if opening is None or opening.open_until < (today or date.today()):
        return None
    return opening


def teams() -> tuple[str, ...]:
    """Every team with an opening, in the order first listed (the careers page's filter)."""
    return tuple(dict.fromkeys(opening.team for opening in OPENINGS))


def places() -> tuple[str, ...]:
    """Every place one may work from, in the order first listed."""
    return tuple(dict.fromkeys(place for opening in OPENINGS for place in opening.places))
