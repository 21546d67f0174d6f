"""Open positions shown on /careers."""

from rcxsite.content.types import Opening

APPLY_EMAIL = "careers@rcx.example"

OPENINGS: tuple[Opening, ...] = (
    Opening(
        title="Senior Python Engineer", team="Software Development",
        location="London or remote (UK)", kind="Full-time",
        summary="Design and build back-end services for clients in finance and healthcare.",
        requirements=("5+ years of Python", "PostgreSQL and cloud experience", "Clear writing"),
    ),
    Opening(
        title="React Front-end Developer", team="Web Development",
        location="Remote (Europe)", kind="Full-time",
        summary="Build fast, accessible interfaces with React and TypeScript.",
        requirements=("3+ years of React", "Accessibility know-how", "Testing habits"),
    ),
    Opening(
        title="DevOps Engineer", team="DevOps", location="London, hybrid", kind="Full-time",
        summary="Run Kubernetes platforms and delivery pipelines for our client projects.",
        requirements=("Terraform or Pulumi", "Kubernetes in production", "On-call experience"),
    ),
    Opening(
        title="Product Designer", team="UI UX", location="Remote (UK)", kind="Contract, 6 months",
        summary="Lead research and design for a new patient-facing health app.",
        requirements=("A portfolio of shipped products", "User research", "Design systems"),
    ),
)
