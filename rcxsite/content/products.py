"""Ready-made products RCX licenses (shown on /products; plans on /pricing)."""

from rcxsite.content.types import Product

PRODUCTS: tuple[Product, ...] = (
    Product(
        name="RCX Desk",
        icon="headset",
        summary="A customer-support desk with shared inbox, chat and a self-service help centre.",
        features=("Shared email and chat inbox", "Help centre with search", "SLA reports"),
    ),
    Product(
        name="RCX Commerce Kit",
        icon="store",
        summary="A headless storefront starter with checkout, stock sync and search built in.",
        features=("Fast static storefront", "Stock and order sync", "Payments and tax"),
    ),
    Product(
        name="RCX Insight",
        icon="chart-line",
        summary="Dashboards and forecasts from the data you already have, with no data team.",
        features=("Connectors for 40 sources", "Scheduled reports", "Sales forecasts"),
    ),
)
