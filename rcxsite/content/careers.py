"""Open positions shown on /careers."""

from urllib.parse import quote

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
    ),
)


def apply_href(title: str) -> str:
    """A mail to the recruiters about one opening, its subject filled in."""
    return f"mailto:{APPLY_EMAIL}?subject={quote(f'Application: {title}')}"
