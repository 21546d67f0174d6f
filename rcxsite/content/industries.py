"""Industries RCX serves. One entry adds its page, its menu entry and its sitemap line."""

from rcxsite.content.types import Industry

INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        slug="healthcare",
        name="Healthcare",
        icon="heart-pulse",
        summary="Patient portals, telehealth and clinical data, built for compliance.",
        intro="Software that lets clinicians spend more time with patients and less with screens.",
        challenges=("Strict privacy rules", "Fragmented clinical systems", "Overloaded staff"),
        solutions=("HL7 FHIR integrations", "Telehealth platforms", "Secure patient apps"),
    ),
    Industry(
        slug="ecommerce",
        name="E-commerce",
        icon="shopping-cart",
        summary="Storefronts and order systems that stay fast on your busiest day.",
        intro="We build commerce platforms that convert visitors and keep operations lean.",
        challenges=("Slow pages lose sales", "Disconnected stock and orders", "Peak traffic"),
        solutions=("Headless storefronts", "Order and inventory integration", "Personalisation"),
    ),
    Industry(
        slug="fintech",
        name="FinTech",
        icon="landmark",
        summary="Secure payments, lending and wealth products that regulators trust.",
        intro="Financial products where security, auditability and uptime are not optional.",
        challenges=("Regulatory audits", "Fraud", "Legacy core banking systems"),
        solutions=("Payment integrations", "Risk and fraud models", "Audit-ready platforms"),
    ),
    Industry(
        slug="education",
        name="Education",
        icon="graduation-cap",
        summary="Learning platforms that work for students, teachers and administrators.",
        intro="Digital classrooms, assessments and administration that scale to every term.",
        challenges=("Peak enrolment loads", "Accessibility duties", "Many devices"),
        solutions=("Learning management systems", "Online assessment", "Student apps"),
    ),
    Industry(
        slug="realestate",
        name="Real Estate",
        icon="building-2",
        summary="Listing portals, CRM and property management software.",
        intro="Tools that help agents, landlords and tenants close and manage deals faster.",
        challenges=("Scattered listings data", "Manual paperwork", "Lead follow-up"),
        solutions=("Listing portals", "Property management systems", "E-signature workflows"),
    ),
    Industry(
        slug="travel",
        name="Travel",
        icon="plane",
        summary="Booking engines and travel apps that handle real-world complexity.",
        intro="Search, booking and trip management that stay reliable when plans change.",
        challenges=("Many supplier APIs", "Seasonal traffic peaks", "Last-minute changes"),
        solutions=("Booking engines", "Supplier integrations", "Traveller apps"),
    ),
)
