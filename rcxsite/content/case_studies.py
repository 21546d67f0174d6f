"""Client stories. One entry adds its page, its card on /insights/casestudies and the sitemap."""

from rcxsite.content.types import CaseStudy, Result

CASE_STUDIES: tuple[CaseStudy, ...] = (
    CaseStudy(
        slug="healthcare",
        timeline="7 months, after a 2-month pilot",
        team="8 people: product lead, 4 engineers, designer, QA, clinical safety officer",
        title="A telehealth platform for a regional clinic network",
        industry="Healthcare",
        client_type=(
            "Northway Clinics, a network of 14 outpatient clinics in the North West of England "
            "serving 120,000 registered patients"
        ),
        summary="Video consultations and online booking for 120,000 patients.",
        challenge=(
            "Patients waited up to three weeks for routine follow-ups, and phone lines were "
            "jammed every morning. Four in ten calls arrived between 8 and 9 a.m., and reception "
            "staff spent most of the day rebooking appointments by hand. Many follow-ups did "
            "not need a room at all, but the clinics had no safe way to see patients remotely."
        ),
        solution=(
            "We built a secure booking portal and video consultation app integrated with the "
            "clinics' record system through HL7 FHIR. Patients sign in with two-factor "
            "authentication, choose a slot and receive reminders by text and push notification. "
            "Clinicians see the same diary they already use, and a two-month pilot at one "
            "clinic shaped the final design before the rollout to all 14 sites."
        ),
        results=(
            Result("62%", "fewer phone bookings"),
            Result("9 days", "shorter average wait"),
            Result("18%", "fewer missed appointments"),
            Result("4.8/5", "patient app rating"),
        ),
        services=("web-development", "mobile-app-development", "ui-ux"),
    ),
    CaseStudy(
        slug="fintech",
        timeline="16 weeks to launch",
        team="6 people: tech lead, 3 engineers, data scientist, QA",
        title="Instant loan decisions for a digital lender",
        industry="FinTech",
        client_type="Lendwise, an FCA-authorised consumer lending start-up based in Manchester",
        summary="A decision engine that approves or declines in seconds.",
        challenge=(
            "Manual underwriting took two days and lost applicants to faster rivals. Decisions "
            "were recorded in spreadsheets, so explaining a decline to a customer or an auditor "
            "took hours. With new funding secured, Lendwise needed to triple its volume without "
            "tripling its underwriting team or weakening its credit controls."
        ),
        solution=(
            "We designed a rules-and-model decision engine with a full audit trail and "
            "connected it to credit bureaus and open-banking data. An explainable scoring "
            "model returns reason codes with every decision, and borderline applications are "
            "routed to an underwriter with the evidence already gathered. The compliance team "
            "reviewed every rule in our sprint demos before it went live."
        ),
        results=(
            Result("45 s", "median decision time"),
            Result("31%", "more completed applications"),
            Result("78%", "of applications decided without manual review"),
            Result("0", "audit findings in the first year"),
        ),
        services=("software-development", "ai-machine-learning", "devops", "startup-services"),
    ),
    CaseStudy(
        slug="education",
        timeline="5 months, live before the summer exams",
        team="7 people: tech lead, 4 engineers, SRE, accessibility specialist",
        title="An online exam platform for a university",
        industry="Education",
        client_type="Eastbridge University, a public university with 28,000 students",
        summary="Remote exams that stay up during the busiest week of the year.",
        challenge=(
            "The old exam system crashed twice during finals week. It ran on two on-premises "
            "servers that could not cope when thousands of students submitted at the same "
            "moment, and answers typed just before a crash were lost. Students with agreed "
            "adjustments, such as extra time or screen-reader support, had to be handled by hand."
        ),
        solution=(
            "We rebuilt it as an autoscaling web application with offline-tolerant answer "
            "saving and accessible question formats. Answers are saved in the browser every ten "
            "seconds and synchronised as soon as a connection returns, so a dropped Wi-Fi signal "
            "costs nothing. Adjustments are read from the student record automatically, and we "
            "load-tested the platform with 15,000 simulated students before the first live exam."
        ),
        results=(
            Result("99.98%", "uptime across exam weeks"),
            Result("11,000", "concurrent students"),
            Result("2,300", "exam adjustments applied automatically"),
            Result("0", "lost answer sheets"),
        ),
        services=("web-development", "devops", "ui-ux"),
    ),
    CaseStudy(
        slug="ecommerce",
        timeline="12 weeks to launch, in time for Black Friday",
        team="6 people: tech lead, 3 engineers, designer, QA",
        title="A headless storefront for a fashion retailer",
        industry="E-commerce",
        client_type="Linea Fashion, a mid-size UK fashion retailer with 40 stores",
        summary="A storefront that loads in under a second on a phone.",
        challenge=(
            "Mobile pages took six seconds to load and most mobile visitors left. The online "
            "shop and the stores kept separate stock, so items shown as sold out online were "
            "often sitting on shop shelves. Every seasonal sale brought the old platform close "
            "to failure."
        ),
        solution=(
            "We moved the shop to a headless architecture with a static-first storefront and "
            "connected stock levels from every store. Product pages are pre-built and served "
            "from a global content delivery network, while prices and stock load live. We "
            "mapped and redirected every old URL so search rankings survived the move, and "
            "added click-and-collect from any of the 40 stores."
        ),
        results=(
            Result("0.9 s", "median mobile load time"),
            Result("27%", "higher mobile conversion"),
            Result("14%", "of online orders collected in store"),
            Result("3x", "Black Friday traffic served"),
        ),
        services=("web-development", "software-development", "internetmarketing"),
    ),
    CaseStudy(
        slug="automobile",
        timeline="6 months across 22 showrooms",
        team="7 people: product lead, 2 mobile and 2 web engineers, designer, QA",
        title="Connected service booking for a car dealer group",
        industry="Automobile",
        client_type="Kestrel Motor Group, a dealer group with 22 showrooms across the Midlands",
        summary="One app for service bookings, reminders and vehicle history.",
        challenge=(
            "Service bays stood empty while customers struggled to book by phone. Reminders "
            "went out by post, often weeks late, and each workshop kept its own diary, so staff "
            "could not offer a slot at a nearby site. Customers who missed a service were "
            "quietly drifting to independent garages."
        ),
        solution=(
            "We built a mobile app and workshop scheduler that reads mileage from connected "
            "cars and suggests a slot before the service is due. With the driver's consent, the "
            "app uses manufacturer telematics data, and it falls back to reminders based on "
            "time and typical mileage for older cars. One shared scheduler now balances work "
            "across all 22 workshops, customers see their full service history in the app, and "
            "service plans and accessories are sold in it, paid for when the work is booked."
        ),
        results=(
            Result("38%", "more service bookings"),
            Result("21%", "higher bay utilisation"),
            Result("46%", "of bookings made outside opening hours"),
            Result("70,000", "app installs in year one"),
        ),
        services=("mobile-app-development", "software-development", "ui-ux"),
        # Its app sells service plans and accessories online: retail work too.
        also_in=("E-commerce",),
    ),
    CaseStudy(
        slug="Hospitality",
        timeline="10 weeks to the first direct booking",
        team="5 people: tech lead, 2 engineers, designer, QA",
        title="A direct-booking engine for a boutique hotel chain",
        industry="Hospitality",
        client_type=(
            "Casa Alma Hotels, a boutique hotel chain with 9 properties in Portugal and Spain"
        ),
        summary="More direct bookings and lower commission costs.",
        challenge=(
            "Most rooms were sold through travel agencies that kept up to 18% commission. The "
            "hotels' own booking page was slow on a phone, showed rates that did not match the "
            "agencies' and offered guests no reason to book direct. Marketing had no way to "
            "launch a seasonal offer without a developer."
        ),
        solution=(
            "We built a fast booking engine with loyalty pricing, channel-manager integration "
            "and a campaign landing-page kit. Availability and rates now come from one channel "
            "manager, so every channel shows the same price and members see a better one. The "
            "marketing team builds offer pages themselves, and paid search campaigns send "
            "guests straight to them."
        ),
        results=(
            Result("2.4x", "direct bookings"),
            Result("41%", "of rooms now booked direct"),
            Result("€310k", "commission saved per year"),
            Result("1.2 s", "booking page load time"),
        ),
        services=("web-development", "internetmarketing", "ui-ux"),
        also_in=("Travel",),
    ),
    CaseStudy(
        slug="realestate",
        timeline="5 months, in three releases",
        team="6 people: tech lead, 3 engineers, designer, QA",
        title="Online lettings for a property manager",
        industry="Real Estate",
        client_type=(
            "Harbour & Vale Lettings, a property manager looking after 6,500 rented homes in "
            "Bristol and Bath"
        ),
        summary="Viewings, tenancies and deposits handled online, not on the phone.",
        challenge=(
            "Every listing went to the portals by hand, and viewing requests arrived by phone "
            "and email faster than the branches could answer them. Tenancy agreements were "
            "printed, signed and scanned, and twice in one year a deposit was registered after "
            "the legal deadline. Homes stood empty between tenants while paperwork caught up."
        ),
        solution=(
            "We built one listings source that publishes to the property portals, a viewing "
            "planner that applicants book themselves, and tenancy agreements signed online with "
            "a full audit trail. Identity and right-to-rent checks are recorded against each "
            "tenancy, deposit deadlines are tracked from the day a tenancy is signed, and "
            "tenants report repairs with photos from their phones."
        ),
        results=(
            Result("11 days", "shorter time between tenants"),
            Result("93%", "of tenancies signed online"),
            Result("0", "deposits registered late since launch"),
            Result("35%", "fewer calls to the branches"),
        ),
        services=("web-development", "software-development", "ui-ux"),
    ),
    CaseStudy(
        slug="travel",
        timeline="7 months, live for the summer season",
        team="7 people: product lead, 2 mobile and 2 backend engineers, designer, QA",
        title="A trip app that rebooks travellers when plans change",
        industry="Travel",
        client_type=(
            "Alpine Trail Holidays, a walking and rail holiday operator taking 38,000 "
            "travellers a year across the Alps"
        ),
        summary="Live itineraries and rebooking in the app when a train is cancelled.",
        challenge=(
            "Itineraries were printed and posted, so any change meant a phone call. When a "
            "rail strike or a landslide closed a line, hundreds of travellers called the "
            "operations team at once, and each new plan had to be put together by hand from "
            "60 hotels' and four rail operators' systems."
        ),
        solution=(
            "We built a traveller app with a live itinerary that works offline, connected to "
            "every hotel and rail supplier through one integration layer. When a connection "
            "fails, the app proposes a new plan from the seats and rooms still free, and the "
            "traveller accepts it with one tap; the operations team sees every disruption on "
            "one board and handles only the cases the app cannot."
        ),
        results=(
            Result("70%", "of disruptions rebooked in the app"),
            Result("4 min", "median time to a new plan"),
            Result("52%", "fewer calls in peak season"),
            Result("4.7/5", "traveller app rating"),
        ),
        services=("mobile-app-development", "software-development", "devops"),
    ),
)
