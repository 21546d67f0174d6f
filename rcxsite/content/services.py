"""Services RCX sells. One entry here adds its page, its menu entry and its sitemap line.

The order is the order of the header's Services menu.
"""

from rcxsite.content.types import Service

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
    ),
)
