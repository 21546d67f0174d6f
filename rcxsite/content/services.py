"""Services RCX sells. One entry here adds its page, its menu entry and its sitemap line.

The order is the order of the header's Services menu.
"""

from dataclasses import dataclass

from rcxsite.content.types import Section, Service

SERVICES: tuple[Service, ...] = (
    Service(
        slug="software-development",
        name="Software Development",
        icon="code",
        summary="Custom business software, from first prototype to long-term support.",
        intro=(
            "We design, build and run software that fits the way your business works, "
            "with small senior teams that ship every two weeks."
        ),
        offerings=(
            "Product discovery and technical roadmaps",
            "Custom back-office and line-of-business systems",
            "Legacy modernisation and cloud migration",
            "APIs and system integration",
        ),
        sections=(
            Section(
                "How we work",
                "Each project has one team of four to seven people, led by an engineer who has "
                "built a similar system before. We work in two-week sprints, demonstrate working "
                "software at the end of every one and agree the next priorities with you.",
                (
                    "A working slice of the product in your hands within the first two weeks",
                    "Automated tests and code review on every change",
                    "A shared backlog you can read and reorder at any time",
                    "Architecture decisions written down, with the reasons behind them",
                ),
            ),
            Section(
                "Typical engagement",
                "Most projects start with a two- to four-week discovery that ends in a written "
                "scope, a delivery plan and a fixed budget. Builds usually run for three to nine "
                "months, followed by a support agreement sized to the system you now own.",
                (
                    "Discovery: two to four weeks, from £18,000",
                    "First release: typically three to five months",
                    "Support and hosting: a fixed monthly fee with agreed response times",
                    "Full handover to your own team whenever you want it",
                ),
            ),
            Section(
                "Why clients choose us",
                "We have delivered more than 340 projects since 2014, and 94% of our clients "
                "come back for more. They tell us it is because we give honest estimates, say "
                "no to work that will not pay off and leave code their own engineers can "
                "maintain.",
                (
                    "Senior engineers on every team, not just in the sales meeting",
                    "Fixed budgets with change requests priced before the work starts",
                    "You own the code, the documentation and the cloud accounts",
                ),
            ),
        ),
        technologies=(
            "Python",
            "Django",
            "C# and .NET",
            "Java and Spring Boot",
            "PostgreSQL",
            "Apache Kafka",
            "Docker",
        ),
    ),
    Service(
        slug="web-development",
        name="Web Development",
        icon="globe",
        summary="Fast, accessible websites and web applications that convert.",
        intro=(
            "From marketing sites to complex portals, we build for speed, accessibility "
            "and search engines from day one."
        ),
        offerings=(
            "Web applications and customer portals",
            "Headless CMS and e-commerce storefronts",
            "Performance and accessibility audits",
            "Progressive web apps",
        ),
        sections=(
            Section(
                "How we work",
                "Designers and developers work in the same sprint, so what is designed on Monday "
                "can be tested in a browser by Friday. Every page is checked for speed, "
                "accessibility and search before it ships, not in a clean-up phase at the end.",
                (
                    "Performance budgets enforced in the build pipeline",
                    "WCAG 2.2 AA checks with automated tools and real screen readers",
                    "Preview links for every change, so your team can review early",
                    "Content editors trained on the CMS before launch",
                ),
            ),
            Section(
                "Typical engagement",
                "A marketing site with a headless CMS usually takes eight to twelve weeks. "
                "Customer portals and web applications are planned in releases, with the first "
                "one in front of real users within three months.",
                (
                    "Audit of your current site: speed, accessibility and search",
                    "Design system and page templates",
                    "Build, content migration and redirects",
                    "Launch support and a 30-day warranty period",
                ),
            ),
            Section(
                "Why clients choose us",
                "Our sites are measured by what they do for the business, not by how they look "
                "in a pitch deck. A storefront we rebuilt for a fashion retailer now loads in "
                "0.9 seconds on a phone and converts 27% better on mobile.",
                (
                    "Core Web Vitals in the green on launch day",
                    "No lock-in to a proprietary page builder",
                    "Search rankings protected during migrations",
                ),
            ),
        ),
        technologies=(
            "TypeScript",
            "React",
            "Next.js",
            "Node.js",
            "GraphQL",
            "Contentful",
            "Playwright",
        ),
    ),
    Service(
        slug="startup-services",
        name="Startup Services",
        icon="rocket",
        summary="From idea to a product investors and users can try, in weeks.",
        intro=(
            "We help founders validate ideas, build a focused first version and grow "
            "the engineering team that takes it further."
        ),
        offerings=(
            "MVP scoping and build",
            "Fractional CTO and architecture reviews",
            "Investor-ready technical due diligence",
            "Hiring and onboarding your first engineers",
        ),
        sections=(
            Section(
                "How we work",
                "We start by agreeing what the first version must prove, and cut everything that "
                "does not help prove it. A small team then builds in weekly iterations, so you "
                "can show progress to users and investors as you go.",
                (
                    "A one-week scoping sprint with a clickable prototype at the end",
                    "Weekly demos and a shared roadmap",
                    "Analytics in place from the first release, so you learn from real use",
                    "Plain architecture that a future in-house team can take over",
                ),
            ),
            Section(
                "Typical engagement",
                "Most first versions take eight to twelve weeks from scoping to launch, on a "
                "fixed price agreed after the scoping sprint. After launch, many founders keep "
                "one of our senior engineers as a fractional CTO while they hire.",
                (
                    "Scoping sprint: one week, fixed fee",
                    "MVP build: eight to twelve weeks",
                    "Fractional CTO: one or two days a week",
                    "Help writing job descriptions and interviewing your first engineers",
                ),
            ),
            Section(
                "Why founders choose us",
                "We have built first versions for more than 40 start-ups, including a consumer "
                "lender whose platform passed its first regulatory audit with no findings. We "
                "know what investors' technical advisers will look at, and we build with that "
                "in mind.",
                (
                    "Due-diligence-ready code, tests and documentation",
                    "Honest advice on what not to build yet",
                    "Introductions to our network of designers and recruiters",
                ),
            ),
        ),
        technologies=(
            "Python",
            "TypeScript",
            "React",
            "Flutter",
            "PostgreSQL",
            "AWS",
            "Stripe",
            "Figma",
        ),
    ),
    Service(
        slug="ai-machine-learning",
        name="AI & Machine Learning",
        icon="brain",
        summary="Practical AI that saves time and earns its cost.",
        intro=(
            "We find the processes where machine learning pays off, build the models "
            "and data pipelines, and put them safely into production."
        ),
        offerings=(
            "Document processing and intelligent search",
            "Forecasting and recommendation models",
            "Assistants built on large language models",
            "MLOps: monitoring, retraining and governance",
        ),
        sections=(
            Section(
                "How we work",
                "Every engagement starts with a business case: the hours saved or the revenue "
                "gained, and how we will measure it. We test ideas on your own data in a short "
                "proof of value before anyone commits to a full build.",
                (
                    "A baseline measured before any model is trained",
                    "Models compared against simple rules, not just against each other",
                    "Human review built in wherever a decision affects a customer",
                    "Data kept in your cloud account and your chosen region",
                ),
            ),
            Section(
                "Typical engagement",
                "A proof of value takes four to six weeks and ends with a go or no-go decision "
                "based on measured results. Production builds add data pipelines, monitoring and "
                "a retraining plan, and usually take a further three to four months.",
                (
                    "Data and process review: one to two weeks",
                    "Proof of value on your data: four to six weeks",
                    "Production build with monitoring and alerts",
                    "Quarterly model reviews as part of support",
                ),
            ),
            Section(
                "Responsible by design",
                "We document how each model was trained, what it is allowed to decide and how its "
                "decisions can be explained. That makes audits, data-protection impact "
                "assessments and customer complaints far easier to handle.",
                (
                    "Model cards and data-protection impact assessments",
                    "Reason codes for automated decisions",
                    "Bias and drift checks on every retraining run",
                ),
            ),
        ),
        technologies=(
            "Python",
            "PyTorch",
            "scikit-learn",
            "Hugging Face Transformers",
            "MLflow",
            "Azure OpenAI Service",
            "pgvector",
            "Apache Airflow",
        ),
    ),
    Service(
        slug="devops",
        name="DevOps",
        icon="infinity",
        summary="Reliable delivery pipelines and cloud platforms that scale.",
        intro=(
            "We automate builds, tests and deployments and run your infrastructure as "
            "code, so releases become routine instead of risky."
        ),
        offerings=(
            "CI/CD pipelines",
            "Infrastructure as code on AWS, Azure and GCP",
            "Kubernetes platforms and observability",
            "Cost and security reviews",
        ),
        sections=(
            Section(
                "How we work",
                "We begin by measuring how you deliver today: how often you deploy, how long a "
                "change takes to reach production, how often releases fail and how quickly you "
                "recover. Then we fix the biggest bottleneck first and measure again.",
                (
                    "Everything in version control: pipelines, infrastructure and dashboards",
                    "Small, reversible changes rather than big-bang platform moves",
                    "Pairing with your engineers so the knowledge stays with you",
                    "Runbooks written and rehearsed before anyone goes on call",
                ),
            ),
            Section(
                "Typical engagement",
                "A delivery and platform review takes two weeks and ends with a prioritised plan. "
                "Implementation usually runs for two to four months; afterwards we can hand over "
                "completely or run the platform for you with a 24/7 on-call rota.",
                (
                    "Two-week review with a written report and cost estimate",
                    "Pipeline and infrastructure-as-code build-out",
                    "Observability: metrics, logs, traces and alerting",
                    "Optional managed service with agreed response times",
                ),
            ),
            Section(
                "Why clients choose us",
                "Teams we coach usually move from monthly releases to several a week within one "
                "quarter. We also look hard at the cloud bill: a typical review finds savings of "
                "20 to 35% without any loss of resilience.",
                (
                    "Engineers who have run production platforms themselves",
                    "Security reviews aligned with Cyber Essentials Plus and ISO 27001",
                    "Zero-downtime migrations, including a 40 TB database move",
                ),
            ),
        ),
        technologies=(
            "Terraform",
            "Kubernetes",
            "GitHub Actions",
            "GitLab CI",
            "Argo CD",
            "Prometheus",
            "Grafana",
            "OpenTelemetry",
        ),
    ),
    Service(
        slug="mobile-app-development",
        name="Mobile App Development",
        icon="smartphone",
        summary="Native and cross-platform apps people keep on their home screen.",
        intro=(
            "We build iOS and Android apps with Swift, Kotlin, Flutter and React Native, "
            "backed by secure APIs and analytics."
        ),
        offerings=(
            "iOS and Android apps",
            "Cross-platform apps with Flutter and React Native",
            "App store launch and release management",
            "Mobile back-ends and offline sync",
        ),
        sections=(
            Section(
                "How we work",
                "We help you choose between native and cross-platform on the evidence: the "
                "device features you need, your budget and who will maintain the app. Test "
                "builds reach your phone every week, and real users try the app long before the "
                "store launch.",
                (
                    "Weekly test builds through TestFlight and Google Play testing tracks",
                    "Accessibility checked with VoiceOver and TalkBack",
                    "Crash reporting and analytics from the first beta",
                    "Automated release pipelines for both stores",
                ),
            ),
            Section(
                "Typical engagement",
                "A first release for iOS and Android typically takes four to six months, "
                "including the back-end and the admin tools your staff will use. After launch we "
                "keep the app current with each new iOS and Android version.",
                (
                    "Discovery and clickable prototype: three to four weeks",
                    "Build in two-week sprints with store-ready builds",
                    "App store listing, review and launch support",
                    "Support plans covering OS updates and security patches",
                ),
            ),
            Section(
                "Why clients choose us",
                "Our apps are built to be used every week, not downloaded once and forgotten. A "
                "service-booking app we built for a dealer group passed 70,000 installs in its "
                "first year, and a clinic network's patient app holds a 4.8 rating.",
                (
                    "Offline-first design for patchy mobile signal",
                    "Secure sign-in with biometrics and two-factor authentication",
                    "Store ratings tracked as a project goal",
                ),
            ),
        ),
        technologies=(
            "Swift and SwiftUI",
            "Kotlin and Jetpack Compose",
            "Flutter",
            "React Native",
            "Firebase",
            "Fastlane",
            "Sentry",
        ),
    ),
    Service(
        slug="ui-ux",
        name="UI UX",
        icon="palette",
        summary="Research-led design that makes complex products feel simple.",
        intro=(
            "Our designers work with your users and your engineers to design interfaces "
            "that are clear, accessible and quick to build."
        ),
        offerings=(
            "User research and usability testing",
            "Information architecture and prototyping",
            "Design systems",
            "Accessibility reviews (WCAG 2.2)",
        ),
        sections=(
            Section(
                "How we work",
                "We talk to the people who will use the product before we draw a single screen, "
                "and we test prototypes with them every sprint. Designers sit in the delivery "
                "team, so designs are checked with engineers early and built as intended.",
                (
                    "Interviews and contextual research with real users",
                    "Prototypes tested with five to eight users per round",
                    "Designs handed over as reusable components, not static pictures",
                    "Disabled users included in every research round",
                ),
            ),
            Section(
                "Typical engagement",
                "A research and design sprint takes three to six weeks and ends with tested "
                "prototypes and a prioritised list of findings. Larger products add a design "
                "system that keeps every new screen consistent and quick to build.",
                (
                    "Research plan and recruitment of participants",
                    "Journey maps and information architecture",
                    "Interactive prototypes and usability test reports",
                    "Design system in Figma, mirrored in code with Storybook",
                ),
            ),
            Section(
                "Why clients choose us",
                "Good design shows up in the numbers: fewer support calls, faster tasks and "
                "higher completion rates. We agree those measures at the start and report on "
                "them after launch.",
                (
                    "Accessibility to WCAG 2.2 AA as standard",
                    "Designers who understand how their work gets built",
                    "Research findings you can reuse long after the project",
                ),
            ),
        ),
        technologies=(
            "Figma",
            "FigJam",
            "Maze",
            "Dovetail",
            "Storybook",
            "axe DevTools",
            "NVDA and VoiceOver",
        ),
    ),
    Service(
        slug="internetmarketing",
        name="Internet Marketing & SEO",
        icon="megaphone",
        summary="Be found by the customers who are already searching for you.",
        intro=(
            "Technical SEO, content and paid campaigns measured against the numbers "
            "that matter to your business."
        ),
        offerings=(
            "Technical SEO audits",
            "Content strategy and writing",
            "Paid search and social campaigns",
            "Analytics and conversion tracking",
        ),
        sections=(
            Section(
                "How we work",
                "We start with measurement: if conversions are not tracked correctly, nothing "
                "else can be judged. Then we fix the technical issues holding your site back, "
                "plan content around what your customers search for and test paid campaigns "
                "against clear targets.",
                (
                    "Consent-aware analytics set up in line with UK GDPR and PECR",
                    "Technical fixes handed to developers as ready-to-build tickets",
                    "Content written by specialists, reviewed by your experts",
                    "Monthly reports on leads, sales and cost per acquisition",
                ),
            ),
            Section(
                "Typical engagement",
                "Most clients start with a four-week audit covering technical SEO, analytics and "
                "paid media. From there we agree a monthly retainer, reviewed every quarter "
                "against the targets we set together.",
                (
                    "Four-week audit with a prioritised action plan",
                    "Monthly retainers from £3,500",
                    "Migration support when you rebuild or move your site",
                    "No long lock-in: one month's notice after the first quarter",
                ),
            ),
            Section(
                "Why clients choose us",
                "Because we also build websites, we can fix the technical problems other agencies "
                "can only report. A boutique hotel chain we work with more than doubled its "
                "direct bookings with a new booking engine and campaign pages.",
                (
                    "SEO and engineering in the same team",
                    "Reporting on revenue, not just rankings and clicks",
                    "Honest advice when a channel is not worth the spend",
                ),
            ),
        ),
        technologies=(
            "Google Search Console",
            "Google Analytics 4",
            "Google Tag Manager",
            "Screaming Frog",
            "Semrush",
            "Google Ads",
            "Looker Studio",
        ),
    ),
    Service(
        slug="staff-augmentation",
        name="Staff Augmentation",
        icon="users",
        summary="Senior engineers who join your team within two weeks.",
        intro=(
            "Extend your team with vetted developers, testers and designers who work in "
            "your tools, your time zone and your rituals."
        ),
        offerings=(
            "Dedicated developers and QA engineers",
            "Team leads and architects",
            "Flexible monthly contracts",
            "Replacement guarantee",
        ),
        sections=(
            Section(
                "How it works",
                "You tell us the skills, seniority and working pattern you need, and we propose "
                "people from our own permanent staff within five working days. You interview "
                "them, and the people you choose start within two weeks.",
                (
                    "Permanent RCX employees, not freelancers found for the occasion",
                    "Interviews and a technical session with your team before anyone starts",
                    "Working in your repositories, your stand-ups and your sprint cadence",
                    "A named delivery manager at RCX who checks in every month",
                ),
            ),
            Section(
                "Typical engagement",
                "Most placements last between six and eighteen months, on monthly contracts with "
                "one month's notice. Clients often start with one or two engineers and grow to a "
                "small team once they see how we work.",
                (
                    "Minimum term: three months",
                    "Day rates agreed up front, with no placement fees",
                    "Scale up or down with one month's notice",
                    "Free replacement within the first 30 days if the fit is wrong",
                ),
            ),
            Section(
                "Why clients choose us",
                "Our engineers bring the habits of a delivery company into your team: tests, code "
                "review and clear written communication. When a placement ends, they leave "
                "documentation behind rather than gaps.",
                (
                    "Average of eight years' experience across our augmentation staff",
                    "UK-based, security-cleared engineers available for regulated clients",
                    "Access to RCX specialists for short reviews when you need them",
                ),
            ),
        ),
        technologies=(
            "Python",
            "Java",
            "C# and .NET",
            "TypeScript and React",
            "Swift and Kotlin",
            "Terraform and Kubernetes",
            "Playwright and Selenium",
        ),
    ),
)


@dataclass(frozen=True)
class ServiceGroup:
    """A row of the /services overview: the need a buyer comes with, and the services
    (slugs above) that meet it."""

    heading: str
    intro: str
    services: tuple[str, ...]


SERVICE_GROUPS: tuple[ServiceGroup, ...] = (
    ServiceGroup(
        "Build a product",
        "From the first workshop to the release: one senior team designs, builds and tests "
        "what your customers will use.",
        ("software-development", "web-development", "mobile-app-development", "ui-ux"),
    ),
    ServiceGroup(
        "Run it and grow it",
        "Keep it fast and safe in production, make it smarter with your own data and bring "
        "the right people to it.",
        ("devops", "ai-machine-learning", "internetmarketing"),
    ),
    ServiceGroup(
        "Start or strengthen a team",
        "A partner for founders from idea to funding, or engineers who join your own team "
        "within two weeks.",
        ("startup-services", "staff-augmentation"),
    ),
)

# One result a case study gave, shown with each service on the /services overview:
# service slug -> (case study slug, index of the result in its `results`); a service
# without a study of its own is left out.
SERVICE_PROOF: dict[str, tuple[str, int]] = {
    "software-development": ("fintech", 2),
    "web-development": ("ecommerce", 0),
    "mobile-app-development": ("automobile", 3),
    "ui-ux": ("healthcare", 3),
    "devops": ("education", 0),
    "ai-machine-learning": ("fintech", 0),
    "internetmarketing": ("Hospitality", 0),
    "startup-services": ("fintech", 1),
}

# How work with us runs, whichever services it needs: (step, what happens).
ENGAGEMENT_STEPS: tuple[tuple[str, str], ...] = (
    (
        "1. Discovery",
        "Workshops with your people and a prototype of the riskiest part, then a fixed plan "
        "and price for the first release: one week for a start-up's first version, up to six "
        "for a large design programme.",
    ),
    (
        "2. Delivery in short sprints",
        "A working demo every one or two weeks and a written report every Friday: you see "
        "progress, not slides. Engineers who join your own team work in your sprints instead.",
    ),
    (
        "3. Launch and run",
        "We release with monitoring in place, stay on call through the first weeks and hand "
        "over or keep running it, as you prefer.",
    ),
)
