"""Corporate social responsibility activities on /insights/csractivities."""

from rcxsite.content.types import Section

CSR_ACTIVITIES: tuple[Section, ...] = (
    Section(
        "Code club for teenagers",
        "Every Saturday our volunteers teach programming to 40 students from local schools in "
        "our Tanner Street studio. Students aged 13 to 17 build games, websites and small "
        "robots, and this year six of them went on to study computing at university.",
    ),
    Section(
        "Trees for every project",
        "We plant ten trees for every project we deliver: 3,400 trees so far. About 1,200 of "
        "them were planted by our own staff and local volunteers on community sites in Kent "
        "and the Lake District; the rest through a UK woodland charity.",
    ),
    Section(
        "Pro bono work",
        "Each year we build one product for a charity free of charge, chosen by a staff vote. "
        "Recent projects include a volunteer-rota app for a food bank network and an "
        "accessible booking site for a young carers' respite service.",
    ),
    Section(
        "Accessible by default",
        "We test everything we build with assistive technology, and publish what we learn. "
        "Our designers run free accessibility clinics for charities and small businesses four "
        "times a year.",
    ),
    Section(
        "Work experience and mentoring",
        "We offer two-week work experience placements to 20 students from London state schools "
        "each summer. Our engineers also mentor career changers through a free evening "
        "programme, and several have since joined our graduate intake.",
    ),
    Section(
        "Greener delivery",
        "We choose cloud regions that run on low-carbon energy where clients allow it, and we "
        "switch off test environments outside working hours. Our London studio runs on "
        "renewable electricity, and most of our team commute by public transport or bike.",
    ),
)
