"""Client stories. One entry adds its page, its card on /insights/casestudies and the sitemap."""

from rcxsite.content.types import CaseStudy, Result

CASE_STUDIES: tuple[CaseStudy, ...] = (
    CaseStudy(
        slug="healthcare",
        title="A telehealth platform for a regional clinic network",
        industry="Healthcare",
        client_type="Network of 14 outpatient clinics",
        summary="Video consultations and online booking for 120,000 patients.",
        challenge=(
            "Patients waited up to three weeks for routine follow-ups, and phone lines were "
            "jammed every morning."
        ),
        solution=(
            "We built a secure booking portal and video consultation app integrated with the "
            "clinics' record system through HL7 FHIR."
        ),
        results=(
            Result("62%", "fewer phone bookings"),
            Result("9 days", "shorter average wait"),
            Result("4.8/5", "patient app rating"),
        ),
        services=("Web Development", "Mobile App Development"),
    ),
    CaseStudy(
        slug="fintech",
        title="Instant loan decisions for a digital lender",
        industry="FinTech",
        client_type="Consumer lending start-up",
        summary="A decision engine that approves or declines in seconds.",
        challenge="Manual underwriting took two days and lost applicants to faster rivals.",
        solution=(
            "We designed a rules-and-model decision engine with a full audit trail and "
            "connected it to credit bureaus and open-banking data."
        ),
        results=(
            Result("45 s", "median decision time"),
            Result("31%", "more completed applications"),
            Result("0", "audit findings in the first year"),
        ),
        services=("Software Development", "AI & Machine Learning"),
    ),
    CaseStudy(
        slug="education",
        title="An online exam platform for a university",
        industry="Education",
        client_type="Public university with 28,000 students",
        summary="Remote exams that stay up during the busiest week of the year.",
        challenge="The old exam system crashed twice during finals week.",
        solution=(
            "We rebuilt it as an autoscaling web application with offline-tolerant answer "
            "saving and accessible question formats."
        ),
        results=(
            Result("99.98%", "uptime across exam weeks"),
            Result("11,000", "concurrent students"),
            Result("0", "lost answer sheets"),
        ),
        services=("Web Development", "DevOps"),
    ),
    CaseStudy(
        slug="ecommerce",
        title="A headless storefront for a fashion retailer",
        industry="E-commerce",
        client_type="Mid-size fashion retailer with 40 stores",
        summary="A storefront that loads in under a second on a phone.",
        challenge="Mobile pages took six seconds to load and most mobile visitors left.",
        solution=(
            "We moved the shop to a headless architecture with a static-first storefront and "
            "connected stock levels from every store."
        ),
        results=(
            Result("0.9 s", "median mobile load time"),
            Result("27%", "higher mobile conversion"),
            Result("3x", "Black Friday traffic served"),
        ),
        services=("Web Development", "Internet Marketing & SEO"),
    ),
    CaseStudy(
        slug="automobile",
        title="Connected service booking for a car dealer group",
        industry="Automobile",
        client_type="Dealer group with 22 showrooms",
        summary="One app for service bookings, reminders and vehicle history.",
        challenge="Service bays stood empty while customers struggled to book by phone.",
        solution=(
            "We built a mobile app and workshop scheduler that reads mileage from connected "
            "cars and suggests a slot before the service is due."
        ),
        results=(
            Result("38%", "more service bookings"),
            Result("21%", "higher bay utilisation"),
            Result("70,000", "app installs in year one"),
        ),
        services=("Mobile App Development", "Software Development"),
    ),
    CaseStudy(
        slug="Hospitality",
        title="A direct-booking engine for a boutique hotel chain",
        industry="Hospitality",
        client_type="Boutique hotel chain with 9 properties",
        summary="More direct bookings and lower commission costs.",
        challenge="Most rooms were sold through travel agencies that kept up to 18% commission.",
        solution=(
            "We built a fast booking engine with loyalty pricing, channel-manager integration "
            "and a campaign landing-page kit."
        ),
        results=(
            Result("2.4x", "direct bookings"),
            Result("€310k", "commission saved per year"),
            Result("1.2 s", "booking page load time"),
        ),
        services=("Web Development", "Internet Marketing & SEO"),
    ),
)
