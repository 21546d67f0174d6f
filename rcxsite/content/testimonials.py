"""Client quotes on /insights/testimonials."""

from rcxsite.content.types import Testimonial

TESTIMONIALS: tuple[Testimonial, ...] = (
    Testimonial(
        "They shipped a working booking flow in the second sprint and never missed a date after.",
        "Helen Carter", "Chief Operating Officer", "Northway Clinics",
    ),
    Testimonial(
        "RCX asked the hard questions early. Our loan platform passed its audit first time.",
        "Ravi Menon", "CTO", "Lendwise",
    ),
    Testimonial(
        "Exam week used to be a nightmare. This year nobody noticed the system at all.",
        "Dr. Sarah Lind", "Head of Digital Learning", "Eastbridge University",
    ),
    Testimonial(
        "Our mobile conversion went up by a quarter within two months of launch.",
        "Tom Becker", "E-commerce Director", "Linea Fashion",
    ),
)
