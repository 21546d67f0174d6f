"""Client quotes on /insights/testimonials."""

from rcxsite.content.types import Testimonial

TESTIMONIALS: tuple[Testimonial, ...] = (
    Testimonial(
        "They shipped a working booking flow in the second sprint and never missed a date after. "
        "Our receptionists finally have time for the patients standing in front of them.",
        "Helen Carter",
        "Chief Operating Officer",
        "Northway Clinics",
    ),
    Testimonial(
        "RCX asked the hard questions early. Our loan platform passed its audit first time, and "
        "we now decide most applications in under a minute.",
        "Ravi Menon",
        "CTO",
        "Lendwise",
    ),
    Testimonial(
        "Exam week used to be a nightmare. This year nobody noticed the system at all, which is "
        "exactly what you want from exam software.",
        "Dr. Sarah Lind",
        "Head of Digital Learning",
        "Eastbridge University",
    ),
    Testimonial(
        "Our mobile conversion went up by a quarter within two months of launch, and Black "
        "Friday was the calmest trading day we have had in years.",
        "Tom Becker",
        "E-commerce Director",
        "Linea Fashion",
    ),
    Testimonial(
        "Customers now book their service from the app before we even remind them. Our "
        "workshops have not been this full since we opened the group.",
        "Gareth Hughes",
        "Head of Aftersales",
        "Kestrel Motor Group",
    ),
    Testimonial(
        "We were paying agencies for guests who already knew us. The new booking engine paid "
        "for itself in its first summer.",
        "Inês Carvalho",
        "Commercial Director",
        "Casa Alma Hotels",
    ),
    Testimonial(
        "Our void periods fell by more than a week, and nobody in the branches wants to go "
        "back to paper tenancies.",
        "Claire Osei",
        "Operations Director",
        "Harbour & Vale Lettings",
    ),
    Testimonial(
        "During last summer's rail strikes most of our travellers had a new plan on their phone "
        "before they thought of calling us.",
        "Lukas Brunner",
        "Head of Operations",
        "Alpine Trail Holidays",
    ),
)
