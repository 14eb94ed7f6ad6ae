// Issue 23 part B: cash drawers, netting of box-office orders in payouts, how a box-office refund
// went back. The spec is silent on all of it: our own wording (docs/box-office.md).

export const M_DRAWER = {
  drawerOpeningFloatRequired: 'Enter the cash in the drawer at the start of your shift (0 for none).',
  drawerAmountInvalid: 'Enter an amount in dollars and cents, 0 or more.',
  drawerCountedRequired: 'Enter the cash you counted in the drawer.',
  drawerNoteTooLong: 'The note must be at most 500 characters.',
  drawerAlreadyOpen: 'You already have an open cash drawer. Close it before opening another.',
  drawerNotOpen: 'Open your cash drawer before taking cash: Box office > Cash drawer > Open drawer.',
  drawerClosed: 'This cash drawer is already closed.',
  drawerNotYours: 'Only the staff member who opened this cash drawer can close it.',
  drawerOpened: 'Cash drawer opened.',
  drawerClosedToast: 'Cash drawer closed.',
  drawersExportEmpty: 'There are no cash drawers to export.',
  refundMethodRequired: 'Say how the money went back: cash from your drawer, or the card terminal with its reference.',
  refundTerminalReferenceRequired: "Enter the card terminal's refund reference.",
  refundNotOwed: 'This refund is not owed at the box office: it was settled already, or it goes back through the payment processor.',
  refundSettled: 'Refund settled.',
  refundOwedAtBoxOffice: 'Owed at the box office',
  refundNothingForComp: 'This order is complimentary: nothing was paid, so there is nothing to refund.',
  payoutNettingLine: "The platform's fees on a cash or card-terminal order are taken from the tenant's next payout; they are not paid out on their own.",
  payoutNettingOwed: 'The platform fees on cash and card-terminal orders since the last payout make this total zero or less. The balance is carried to the next payout.',
} as const;
