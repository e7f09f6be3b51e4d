/**
 * The demo repository ingested on the standalone service's first start. Small on purpose, with
 * real findings to make: refund and hotel figures that contradict each other, and a duplicate.
 */
export const DEMO_DOCUMENTS: { externalId: string; name: string; url: string; owner: string; content: string }[] = [
  {
    externalId: 'finance/refund-policy.md',
    name: 'Refund policy',
    url: 'https://intranet.example/finance/refund-policy',
    owner: 'finance',
    content: `# Refund policy

## Eligibility

Customers may ask for a refund of any order that was not delivered, or that arrived damaged.

## Deadlines

Refunds are processed within 30 days of the customer's request.
Card payments are refunded to the card used for the order; bank transfers are refunded by transfer.

## Exceptions

Gift cards are not refundable.
`,
  },
  {
    externalId: 'support/customer-faq.md',
    name: 'Customer FAQ',
    url: 'https://intranet.example/support/faq',
    owner: 'support',
    content: `# Customer FAQ

## How long does a refund take?

Refunds are issued within 14 days after we receive the request.

## Can I change my delivery address?

Yes, until the parcel leaves the warehouse. Contact support with your order number.

## Are gift cards refundable?

No, gift cards cannot be refunded.
`,
  },
  {
    externalId: 'hr/travel-expenses.md',
    name: 'Travel expenses',
    url: 'https://intranet.example/hr/travel-expenses',
    owner: 'hr',
    content: `# Travel expenses

## Hotels

The company reimburses hotel nights up to 150 EUR per night in every city.

## Meals

Meals are reimbursed up to 35 EUR per day on presentation of receipts.

## Trains and flights

Trains are preferred for trips under four hours.
`,
  },
  {
    externalId: 'hr/travel-policy-2023.md',
    name: 'Travel policy 2023',
    url: 'https://intranet.example/hr/travel-policy-2023',
    owner: 'hr',
    content: `# Travel policy 2023

## Accommodation

Hotel costs are reimbursed up to 120 EUR per night; Paris and London up to 180 EUR.

## Booking

All trips are booked through the travel desk at least one week in advance.
`,
  },
  {
    externalId: 'hr/remote-work.md',
    name: 'Remote work',
    url: 'https://intranet.example/hr/remote-work',
    owner: 'hr',
    content: `# Remote work

Employees may work remotely up to three days per week, in agreement with their manager.
Equipment for the home office is provided by the IT desk.
`,
  },
  {
    externalId: 'hr/remote-work-copy.md',
    name: 'Remote work (copy)',
    url: 'https://intranet.example/hr/old/remote-work',
    owner: 'hr',
    content: `# Remote work

Employees may work remotely up to three days per week, in agreement with their manager.
Equipment for the home office is provided by the IT desk.
`,
  },
];
