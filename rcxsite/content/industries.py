"""Industries RCX serves. One entry adds its page, its menu entry and its sitemap line."""

from rcxsite.content.types import Industry, Section

INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        slug="healthcare",
        name="Healthcare",
        icon="heart-pulse",
        summary="Patient portals, telehealth and clinical data, built for compliance.",
        intro="Software that lets clinicians spend more time with patients and less with screens.",
        challenges=("Strict privacy rules", "Fragmented clinical systems", "Overloaded staff"),
        solutions=("HL7 FHIR integrations", "Telehealth platforms", "Secure patient apps"),
        sections=(
            Section(
                "Compliance built in, not bolted on",
                "Health data is special category data under UK GDPR, and NHS partners expect "
                "suppliers to prove how they protect it. We plan clinical safety and data "
                "protection from the first sprint, so the evidence is ready when your "
                "information governance team asks for it.",
                (
                    "NHS Data Security and Protection Toolkit (DSPT) evidence prepared as we build",
                    "Clinical risk management to DCB0129, with a named clinical safety officer",
                    "Data-protection impact assessments and UK-only hosting",
                    "Cyber Essentials Plus certified engineering practices",
                    "Accessibility to WCAG 2.2 AA for patient-facing services",
                ),
            ),
            Section(
                "How we work with healthcare teams",
                "Clinicians are busy, so we go to them: we shadow clinics, run short workshops "
                "between sessions and test prototypes with patients in waiting rooms. New "
                "services are piloted at one site before they roll out to the rest.",
                (
                    "Clinical and administrative staff involved in every sprint review",
                    "Integration with existing record systems through HL7 FHIR",
                    "Single-site pilots with agreed success measures",
                    "Training materials and support for go-live weeks",
                ),
            ),
        ),
    ),
    Industry(
        slug="ecommerce",
        name="E-commerce",
        icon="shopping-cart",
        summary="Storefronts and order systems that stay fast on your busiest day.",
        intro="We build commerce platforms that convert visitors and keep operations lean.",
        challenges=("Slow pages lose sales", "Disconnected stock and orders", "Peak traffic"),
        solutions=("Headless storefronts", "Order and inventory integration", "Personalisation"),
        sections=(
            Section(
                "Payments, privacy and accessibility",
                "Online retail carries its own rules, and breaking them costs more than fines. "
                "We design checkouts that keep card data away from your servers, ask for "
                "consent properly and work for every customer, whatever device or assistive "
                "technology they use.",
                (
                    "PCI DSS scope kept small with hosted payment fields",
                    "Strong Customer Authentication and 3-D Secure handled smoothly",
                    "Cookie consent and marketing preferences in line with UK GDPR and PECR",
                    "WCAG 2.2 AA checkouts tested with screen readers",
                    "Clear pricing, delivery and returns information at every step",
                ),
            ),
            Section(
                "How we work with e-commerce teams",
                "Trading calendars come first. We plan releases around your promotions, load "
                "test well ahead of peak and avoid code freezes by shipping behind feature "
                "flags. Merchandisers and customer-service staff help us test, because they "
                "know where customers get stuck.",
                (
                    "Load tests at three times last year's peak traffic",
                    "Changes released behind feature flags, switched on when you choose",
                    "Shared dashboards for conversion, basket size and page speed",
                    "An engineer on call throughout Black Friday and other key dates",
                ),
            ),
        ),
    ),
    Industry(
        slug="fintech",
        name="FinTech",
        icon="landmark",
        summary="Secure payments, lending and wealth products that regulators trust.",
        intro="Financial products where security, auditability and uptime are not optional.",
        challenges=("Regulatory audits", "Fraud", "Legacy core banking systems"),
        solutions=("Payment integrations", "Risk and fraud models", "Audit-ready platforms"),
        sections=(
            Section(
                "Built for the regulator's questions",
                "FCA-regulated firms must show how every customer outcome was reached and how "
                "their suppliers are controlled. We build audit trails, access controls and "
                "resilience testing into the platform, so your compliance team can answer "
                "questions with evidence rather than emails.",
                (
                    "Consumer Duty: decisions explained and customer outcomes monitored",
                    "Operational resilience: important business services mapped and tested",
                    "Outsourcing controls under SYSC 8, with exit plans documented",
                    "PCI DSS, PSD2 Strong Customer Authentication and open-banking standards",
                    "DORA readiness for clients operating in the EU",
                ),
            ),
            Section(
                "How we work with fintech teams",
                "Compliance and risk colleagues join our sprint reviews, so rules are agreed "
                "before they are built, not after. Every production change is peer-reviewed, "
                "traceable to a ticket and deployed by pipeline, never by hand.",
                (
                    "Threat modelling at the start of every major feature",
                    "Four-eyes approval on all production changes",
                    "Annual penetration tests by an independent CREST-accredited firm",
                    "Evidence packs prepared for auditors and due diligence",
                ),
            ),
        ),
    ),
    Industry(
        slug="education",
        name="Education",
        icon="graduation-cap",
        summary="Learning platforms that work for students, teachers and administrators.",
        intro="Digital classrooms, assessments and administration that scale to every term.",
        challenges=("Peak enrolment loads", "Accessibility duties", "Many devices"),
        solutions=("Learning management systems", "Online assessment", "Student apps"),
        sections=(
            Section(
                "Accessibility, safeguarding and data",
                "Universities, colleges and schools have legal duties that shape every screen. "
                "We build to the Public Sector Bodies Accessibility Regulations from the start, "
                "treat learners' data with the care the law requires and make sure the "
                "accessibility statement you publish is true.",
                (
                    "WCAG 2.2 AA and a ready-to-publish accessibility statement",
                    "The ICO's Age Appropriate Design Code for services used by under-18s",
                    "UK GDPR data-protection impact assessments for student data",
                    "Single sign-on with Microsoft Entra ID and Google Workspace",
                    "Reasonable adjustments such as extra time built into assessments",
                ),
            ),
            Section(
                "How we work with education teams",
                "The academic calendar sets the pace. We plan releases around term dates, never "
                "change anything during exam weeks and run load tests before enrolment and "
                "results days. Students and lecturers test new features with us, because they "
                "are the ones who will live with them.",
                (
                    "Release plans agreed around term, exam and enrolment dates",
                    "Student and staff panels for usability testing",
                    "Load tests sized to your largest cohort, plus headroom",
                    "Support cover extended through exam and results periods",
                ),
            ),
        ),
    ),
    Industry(
        slug="realestate",
        name="Real Estate",
        icon="building-2",
        summary="Listing portals, CRM and property management software.",
        intro="Tools that help agents, landlords and tenants close and manage deals faster.",
        challenges=("Scattered listings data", "Manual paperwork", "Lead follow-up"),
        solutions=("Listing portals", "Property management systems", "E-signature workflows"),
        sections=(
            Section(
                "Paperwork, money and rules",
                "Property transactions involve identity checks, client money and legal "
                "documents, and each comes with obligations. We automate the paperwork while "
                "keeping the records that agents, landlords and their regulators need.",
                (
                    "Anti-money-laundering identity checks recorded against each transaction",
                    "Material information shown on listings, as Trading Standards guidance asks",
                    "Tenancy deposit protection deadlines tracked automatically",
                    "Electronic signatures with a full audit trail",
                    "UK GDPR retention rules applied to applicant and tenant data",
                ),
            ),
            Section(
                "How we work with real-estate teams",
                "Agents live in their CRM and on the phone, so we build tools that fit around "
                "them rather than adding another screen. We start by mapping how a listing, a "
                "viewing and an offer move through your business today, then remove the "
                "re-keying.",
                (
                    "Listing data synced to the major property portals from one source",
                    "Lead routing and follow-up reminders that agents actually use",
                    "Mobile tools for viewings, inventories and inspections",
                    "Landlord and tenant portals that cut calls to the branch",
                ),
            ),
        ),
    ),
    Industry(
        slug="travel",
        name="Travel",
        icon="plane",
        summary="Booking engines and travel apps that handle real-world complexity.",
        intro="Search, booking and trip management that stay reliable when plans change.",
        challenges=("Many supplier APIs", "Seasonal traffic peaks", "Last-minute changes"),
        solutions=("Booking engines", "Supplier integrations", "Traveller apps"),
        sections=(
            Section(
                "Protection, payments and personal data",
                "Selling travel means handling passport details, card payments and the rules "
                "that protect holidaymakers. We design booking flows that get these right "
                "without adding friction to the checkout.",
                (
                    "Package Travel Regulations and ATOL information at the right step",
                    "PCI DSS-compliant payments with Strong Customer Authentication",
                    "Passport and passenger data encrypted and kept only as long as needed",
                    "Price and availability shown accurately, including all mandatory fees",
                    "Accessible booking journeys and assistance requests",
                ),
            ),
            Section(
                "How we work with travel teams",
                "Supplier APIs are slow, inconsistent and change without warning, so we build "
                "integrations that cache sensibly, fail gracefully and alert you early. "
                "Releases are planned away from the late-January booking peak and the summer "
                "departure season.",
                (
                    "Contract tests against every supplier sandbox",
                    "Availability caching tuned to each supplier's rules",
                    "Disruption handling: rebooking and refunds without a call-centre queue",
                    "Operations dashboards for bookings, failures and supplier response times",
                ),
            ),
        ),
    ),
)
