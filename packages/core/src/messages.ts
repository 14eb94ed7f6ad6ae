// Every message a person reads, word for word from the spec (accounts-admin-fees §5/§8,
// reports-payouts-checkout §5/§8). Forms and the server both import from here.

import { M_DRAWER } from './messages-drawer.js';
import { M_SITE } from './messages-site.js';

export const M = {
  ...M_SITE,
  ...M_DRAWER,
  // Profile (accounts §5)
  firstNameRequired: 'The First Name field is required.',
  lastNameRequired: 'The Last Name field is required.',
  invalidFormat: 'Invalid format.',
  pictureType: 'Invalid file extention. Only jpg, jpeg, and png files are accepted.',
  pictureSize: 'File size must be less than 5MB',
  phoneIncomplete: 'Please enter complete phone number',
  inputValidationError: 'Input Validation Error. Please fix the errors on the inputs first.',
  birthDateRange: 'Birth date must be between 100 years ago and yesterday.',
  zipMax: 'Zip code must be at most 5 characters.',

  // Change password
  currentPasswordRequired: 'The current password field is required.',
  newPasswordRequired: 'The new password field is required.',
  confirmPasswordRequired: 'The confirm password field is required.',
  newPasswordMismatch: 'new password did not match',

  // Sign-up
  validEmail: 'Please enter a valid email.',
  passwordRequired: 'Please enter your password.',
  passwordMin: 'Password must be at least 8 characters.',
  passwordComplexity:
    'Password must contain at least one uppercase, one lowercase, one number and one special character.',
  passwordsMustMatch: 'Passwords must match',
  confirmPasswordEnter: 'Please enter confirm password.',
  firstNameAlpha: 'First Name must contain only alphabets.',
  lastNameAlpha: 'Last Name must contain only alphabets.',
  stateAlpha: 'State must contain only alphabets.',
  invalidNumber: 'Invalid number.',
  // Our own wording: the spec names no upper limits.
  passwordMax: 'Password must be at most 256 characters.',
  addressTooLong: 'This address is too long.',
  addressInvalid: 'This address is not valid.',
  nameMax: 'Must be at most 80 characters.',

  // New tenant
  emailRequired: 'Email is required.',
  emailFormat: 'Entered value does not match email format',
  tenantNameRequired: 'Tenant name is required.',
  tenantNameFormat: 'Tenant name must not have trailing spaces or special characters except hyphens.',
  phoneRequired: 'Phone number is required.',
  phoneCorrect: 'Please enter correct phone number',
  urlRequired: 'URL is required.',
  urlNoSpaces: 'URL must not contain spaces.',
  subjectRequired: 'Subject is required.',
  messageRequired: 'Message is required.',
  noTrailingSpaces: 'Must not have trailing spaces.',
  fieldRequired: 'This field is required',

  // Policy
  policyIdRequired: 'Policy ID is Required',
  policyIdFormat: "Policy ID must be lowercase and alphanumeric. Optional delimiter: '-'",
  policyDetailsRequired: 'Policy details cannot be blank.',

  // Surcharge rule
  ruleNameRequired: 'Surcharge Rule Name is Required',
  ruleNameTrailing: 'Surcharge Rule Name must not contain trailing spaces.',
  serviceFeeRequired: 'Service Fee is Required',
  invalidValue: 'Invalid value.',

  // Settings
  donationChargeRequired: 'Donation Charge is required',
  taxRateRequired: 'Tax rate is required.',
  chargeCashRequired: 'Charge Cash Order is required.',
  chargeBoxOfficeRequired: 'Charge Box Office is required.',
  processingFeeRequired: 'Processing Fee is required.',
  platformFeeRequired: 'Platform Fee is required.',
  complimentaryLimited: 'Please Specify a Limited Quantity',

  // Template
  templateName: 'Please enter template name',
  templateDescription: 'Please enter description',
  templateThumbnail: 'Please add template thumbnail',
  templateZip: 'Please select a ZIP file',
  templateImageSize: 'Image size must not be greater than 20MB.',
  templateImageType: 'Please select a valid image file.',
  // Template toasts (accounts §8, shown 4000 ms per §9); the zip check messages are our own wording.
  templateUploaded: 'Template uploaded successfully',
  templateUpdated: 'Template updated successfully',
  templateRemoved: 'Template removed successfully',
  // spec §8 'Failed. Failed to Create the Template!': the toast's title and body.
  templateCreateFailedTitle: 'Failed.',
  templateCreateFailedBody: 'Failed to Create the Template!',
  templateUpdateFailed: 'Failed to Update the Template!',
  templateDeleteFailedTitle: 'Delete Failed',
  templateDeleteFailedBody: 'Something went wrong while deleting this template',
  templateDeleteConfirm: 'Are you sure you want to delete this template?',
  templateZipBroken: 'This file is not a readable ZIP archive.',
  templateZipMissing: 'The ZIP file must contain index.html, index.css, project.json, config.json and metadata.json. Missing:',
  templateZipBadJson: 'A JSON file in the ZIP could not be read:',
  templateZipUnsafePath: 'The ZIP file holds a path that leaves the archive, an absolute path or a link:',
  templateZipTooBig: 'The ZIP file unpacks to more than the allowed size (at most 2,000 files, 20 MB a file, 100 MB in all, 200 times compressed).',
  templateZipTooLarge: 'The ZIP file must not be larger than 50MB.',
  templateUploadExpired: 'This upload link has expired or was already used. Please save the template again.',
  // Event page builder (issue 10, our own wording)
  eventPageNoTemplate: 'Please choose a template.',
  eventPageNoDraft: 'There is no draft to publish yet.',
  eventPageVersionUnknown: 'There is no published version with that number.',

  // Charity (accounts §5, §8; the status message and the event's charity are our own wording)
  charityName: 'Please enter charity name',
  charityStatusRequired: 'Please select charity status',
  charityAdded: 'Charity added successfully',
  charityUpdated: 'Charity Updated successfully',
  charityRemoved: 'Charity removed successfully',
  charityDisableSuccessTitle: 'Disable Success',
  charityDisableSuccessBody: 'Charity disabled successfully',
  charityListUpdatedTitle: 'Update Success',
  charityListUpdatedBody: 'Tenant Charity list has been updated successfully',
  charityDisableFailed: 'Disable Failed',
  charitiesUpdateFailed: 'Failed to update Charities',
  charityDeleteFailedTitle: 'Delete Failed',
  charityDeleteFailedBody: 'Something went wrong while deleting this charity',
  charityDeleteConfirm: 'Are you sure you want to delete this Charity?',
  charityDisableWarning: "Disabling this charity removes it from the charity dropdown on your events' ticket settings page. Events that use it stop collecting donations for it.",
  charityInactive: 'This charity is inactive. Only an active charity can be enabled.',
  eventCharityInvalid: 'Please choose one of your enabled charities.',

  tenantIdRequired: 'Tenant ID is required',

  // Accounts toasts (accounts §8)
  invalid: 'Invalid.',
  error: 'Error.',
  failedUpdatingData: 'Failed updating data.',
  success: 'Success.',
  successfullyUpdated: 'Successfully updated',
  profileUpdated: 'User Profile updated successfully',
  linkAuthFailedTitle: 'Failed to authenticate user',
  linkAuthFailedBody: 'Please check your credentials and try again',
  linkFailedBody:
    'Please check your invite link and try again. If this error continues please contact the person who sent you this link for more info.',
  registerFailedTitle: 'Failed to Register',
  registerFailedBody: 'Please check your registration details or contact your administrator for support',
  registerSuccess: 'Registration Succesful',
  inviteFailedTitle: 'Invite Verification Failed',
  inviteFailedBody: 'Please check the invite link sent to your email or contact your administrator',
  invalidSessionTitle: 'Invalid user session',
  invalidSessionBody: 'Please login first',

  // Checkout fields (reports-payouts-checkout §5)
  checkoutEmailRequired: 'Email field is required.',
  mobileRequired: 'Mobile number field is required.',
  addressRequired: 'Address field is required.',
  cityRequired: 'The city field is required.',
  stateRequired: 'The State field is required.',
  zipRequired: 'The Zip code field is required.',
  zipDigits: 'Zip code must contain only numbers.',
  countryRequired: 'Country field is required',

  // Server-side account messages of our own (spec silent; see docs/decisions.md)
  signInFailed: 'Invalid email or password.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  invalidCode: 'The code is invalid or has expired.',
  unlockLinkInvalid: 'This unlock link is invalid, was already used or has expired.',
  usageLimitBelowUsed: 'The usage limit cannot be lower than the number of times this code has already been used.',
  codesLocked: 'Too many wrong codes for this account. We have e-mailed a link that unlocks it.',
  notSignedIn: 'Please login first',
  forbidden: 'You do not have access to this.',
  notFound: 'Not found.',
  csrf: 'Your session could not be verified. Please reload the page and try again.',
  signupInviteOnly: 'Sign-up here is by invitation only.',
  wrongPassword: 'The current password is incorrect.',
  codeSent: 'If an account exists for that email, we have sent it a code.',
  emailNotVerified: 'Please verify your e-mail address first. We have sent you a new code.',
  // Platform console: tenants, platform users, policies, fees, payment settings (accounts §5, §8)
  addTenantFailed: 'Add Tenant Failed',
  tenantSettingsFailed: 'Creating tenant settings failed.',
  tenantUrlFormat: 'URL may only contain lower-case letters, numbers and hyphens, and must start and end with a letter or number.',
  // Our own wording: a tenant URL is a DNS label, at most 63 characters (docs/decisions.md, "Tenants: …").
  tenantUrlLength: 'URL must be at most 63 characters.',
  tenantUrlTenantHint: "Only Marquee can change your site's address.",
  tenantUrlReadOnlyHint: "Only a Super User or a Platform Manager can change this tenant's address.",
  tenantUrlReserved: 'This URL is reserved. Please choose another.',
  tenantUrlTaken: 'A tenant with this URL already exists. Please choose another URL.',
  tenantUrlPlatformOnly: "Only the platform can change a tenant's URL.",
  tenantDisabled: 'This tenant account is disabled and cannot be edited.',
  tenantDeleteNotAllowed: 'Only active or pending tenants can be deleted.',
  tenantUpdateFailed: 'Failed to Update Tenant Info',
  createBucketFailedTitle: 'Create Bucket Failed',
  createBucketFailedBody: 'Failed to create Bucket for this tenant',
  createBucketSuccess: 'Create Bucket Successful',
  sendInviteFailed: 'Send Invite Failed',
  deleteUserFailed: 'Delete User Failed',
  userVerificationFailed: 'User Verification Failed',
  userNotPending: 'Only users pending verification can be verified.',
  userNotSignedUp: 'This person has not signed up yet. They can finish through the link in their invite.',
  rolesRequired: 'Choose at least one role.',
  lastSuperUser: 'At least one Super User must remain.',
  superUserOnly: 'Only a Super User can grant or remove the Super User role.',
  cannotRemoveSelf: 'You cannot remove your own platform access.',
  // Our own wording (docs/decisions.md, "Platform user verification is a real verify" and "Platform roles in practice")
  alreadyPlatformUser: 'This person is already a platform user. Change their roles with Edit Platform User instead.',
  verifyExistingAccount: 'This person already has a Marquee account. They join the platform console by accepting the invite sent to them.',
  verifyNotThroughInvite: 'This person did not sign up through their platform invite. They can finish through the link in it.',
  noPageAccessTitle: 'You do not have access to this page',
  noPageAccessBody: 'Your platform role does not include this page. Ask a Super User if you need it.',
  // Tenant staff (our own wording; see docs/decisions.md, "Tenant staff")
  lastTenantAdmin: 'A tenant needs at least one admin. Make someone else a Tenant Admin first.',
  policyDeleteFailed: 'Failed to delete Policy!',
  policyDuplicate: 'Duplicate policy found',
  surchargeCreated: 'Success. New Surcharge Created!',
  surchargeUpdated: 'Surcharge Updated Successfully.',
  surchargeDeleted: 'Surcharge Deleted Successfully.',
  settingsUpdated: 'Successfully Updated!',
  surchargeCreateFailed: 'Create New Surcharge Failed',
  surchargeUpdateFailed: 'Update Surcharge Failed',
  surchargeDeleteFailed: 'Failed to Delete Surcharge Rule',
  globalSettingsUpdateFailed: 'Updating Global Settings Failed - Please contact support',
  defaultRuleDelete:
    'This is currently set as the default surcharge rule. Please select a different rule as the default surcharge rule before deleting this rule.',
  defaultRuleLocked:
    'This is currently set as the default surcharge rule. Please select a different rule as the default surcharge rule before switching this rule off.',
  defaultRuleInactive: 'Only an active surcharge rule can be the default surcharge rule.',
  globalSurchargeLoadFailed: 'Failed to load global surcharge data',
  globalSettingsLoadFailed:
    'Failed to load global settings data. No global settings data found. Please try to initialize the global settings.',
  feesEditNotAllowed: 'The platform has not allowed this tenant to edit its fees settings.',
  feesControlPlatformOnly: "Only the platform can change 'Allow Tenant to Edit Fees Settings'.",
  paymentUpdated: 'Payment/Payout updated successfully.',
  paymentUpdateFailed: "Updating Tenant's Payment/Payout Failed",
  paymentSettingsMissing: 'No Payment/payout settings found for this Tenant',
  // Connecting a tenant's payout account (issue 21.18; our wording)
  paymentProviderUnavailable: 'The payment provider did not answer. Please try again in a moment.',
  connectAccountRefused: "The payment provider refused this tenant's account",
  onboardingLinkNotFound: 'This onboarding link does not exist.',
  testOnboardingNotice: 'Test mode: no real account is created and no money moves.',
  logoType: 'Please select a valid image file.',
  logoSize: 'File size must be less than 5MB',

  // Tickets (reports-payouts-checkout §8, §9)
  resentTickets: 'Resent Tickets',
  resendTicketsFailed: 'Failed to Resent Tickets, Tickets Failed to resent.',
  printAtHome: 'Print At Home (Email)',
  // Tickets, test payment page and payment webhooks: our own (spec silent; see docs/decisions.md)
  ticketsOnlyForCompletedOrders: 'Tickets are available only for completed orders.',
  // Ours (docs/decisions.md "Issue 21.3: resending tickets").
  resendElsewhereNotAllowed: 'Only someone who can refund this order can send its tickets to another address. Send them to the buyer’s address instead.',
  // Buyers' self-service (issue 15): our own words (spec silent; see docs/decisions.md)
  findTicketsSent: 'If there are orders for this e-mail address, we have sent their links to it. Check your inbox (and spam folder) in a few minutes.',
  orderLinkResent: 'We have sent the tickets again to the address this order was placed with.',
  noValidTickets: 'This order has no valid tickets.',
  // Issue 28, wallet passes: our own words (spec silent; see docs/decisions.md)
  walletTicketNotValid: 'This ticket is no longer valid (voided, refunded, passed on or already used), so it cannot be added to a wallet.',
  walletNotConfigured: 'Wallet passes are not set up on this site.',
  addToAppleWallet: 'Add to Apple Wallet',
  addToGoogleWallet: 'Add to Google Wallet',
  testPayNotice: 'Test mode: no real card is charged.',
  testPayCards: 'Use 4242 4242 4242 4242 to pay, or 4000 0000 0000 0002 to see a declined card.',
  cardNumberRequired: 'Enter a card number.',
  cardDeclined: 'Your card was declined. Try another card or go back to checkout.',
  testCardUnknown:
    'This is a test payment page and only test cards work. Use 4242 4242 4242 4242 to pay, or 4000 0000 0000 0002 to see a declined card.',
  cardExpiryInvalid: "The card's expiry date is invalid or in the past (MM/YY).",
  cardCvcInvalid: "The card's security code must be 3 or 4 digits.",
  paymentSessionExpired: 'This payment session has expired. Go back to checkout to start again.',
  paymentSessionNotFound: 'This payment page does not exist.',
  paymentComplete: 'This payment is complete.',
  backToCheckout: 'Back to checkout',
  payContinue: 'Continue',
  webhookSignatureInvalid: 'The webhook signature is invalid.',
  webhookPayloadInvalid: 'The webhook payload is invalid.',
  // Reports and exports (reports-payouts-checkout §5, §8)
  exportTenantReportsFailed: 'Failed to export tenant reports',
  exportPayoutTransactionsFailed: 'Failed to export payout transactions',
  exportRefundListFailed: 'Failed to export refund list',
  exportPayoutListFailed: 'Failed to export payout list',
  exportDownloadFailed: 'An error occurred while downloading the report.',
  refundsExportFailed: 'Refunds Export Failed',
  refundsExportEmpty: 'Event does not have refunds to export.',
  errorDownloadingReport: 'Error Downloading Report',
  unknownError: 'Unknown error',
  noEventSelected: 'No Event Selected',
  noEventId: 'No Event ID',
  // Reports: our own wording (spec silent, see docs/decisions.md "Report exports")
  exportNotFound: 'This export does not exist.',
  exportNotReady: 'The report is still being prepared. Please try again in a moment.',
  exportLinkExpired: 'This download link has expired. Please export the report again.',
  // Cart and checkout (reports-payouts-checkout §8)

  // Events, ticket types, discount codes, orders (our own wording; spec silent, see docs/decisions.md)
  eventNameRequired: 'Event name is required.',
  urlNameFormat: 'The URL name may contain only lower-case letters, numbers and single hyphens.',
  urlNameReserved: 'This URL name is reserved. Please choose another.',
  urlNameTaken: 'Another event already uses this URL name.',
  timeZoneInvalid: 'Please choose a valid time zone.',
  dateTimeInvalid: 'Please enter a valid date and time.',
  capacityBelowSold: 'Capacity cannot be less than the tickets already sold or held.',
  eventCancelledReadOnly: 'This event is cancelled and can no longer be changed.',
  eventCancelledNoInvites: 'This event is cancelled: nobody new can be invited to work on it.',
  publishNeedsStart: 'Set the start date and time before publishing the event.',
  publishNeedsTickets: 'Add at least one ticket type before publishing the event.',
  eventHasOrders: 'This event already has orders. Cancel it instead of deleting it.',
  ticketNameRequired: 'Ticket name is required.',
  quantityBelowSold: 'Quantity cannot be less than the tickets already sold or held.',
  minAboveMax: 'The minimum per order cannot be more than the maximum per order.',
  minAboveQuantity: 'The minimum per order cannot be more than the quantity.',
  salesWindowRequired: 'Please enter the start and end date and time of the sales window.',
  salesWindowOrder: 'The sales window must end after it starts.',
  otherTicketTypeRequired: 'Please choose another ticket type of this event.',
  ticketTypeHasSales: 'This ticket type has sales or holds. Switch it off instead of deleting it.',
  discountCodeFormat: 'A discount code may contain only letters, numbers, hyphens and underscores.',
  discountCodeTaken: 'This event already has this discount code.',
  discountPercentRange: 'A percentage discount must be more than 0 and at most 100.',
  discountTicketTypes: 'The discount applies to a ticket type that is not in this event.',
  seatmapType: 'Please upload a PNG, JPG or GIF image.',
  seatmapSize: 'The seat map must be less than 5MB',
  // Issue 15 cover image (our own wording: the spec has no cover image)
  fileTypeNotAccepted: 'This kind of file is not accepted here.',
  coverType: 'Please upload a JPG, PNG or WebP image.',
  coverSize: 'The cover image must be less than 10MB',
  coverUnreadable: 'This image could not be read. It may be damaged or incomplete: please export it again.',
  coverTooSmall: 'The cover image must be at least 800 × 400 pixels.',
  coverTooManyPixels: 'The cover image is too large: at most 50 megapixels, such as 8000 × 6000.',
  phoneWireFormat: 'The mobile number must be sent as digits with a plus prefix, such as +16175550123.',
  // Issue 21: the checkout's text opt-in (our wording; docs/decisions.md "Issue 21: the text opt-in")
  optInTextNeedsPhone: 'Enter your mobile number to get text messages.',
  paymentUnavailable: 'Payment is not available right now. Please try again in a moment.',
  serverBusy: 'The server is busy. Please try again in a moment.',
  redirectUrlInvalid: 'The return address must be on this site.',
  ticketTypeLinked: "Another ticket type's availability depends on this one. Change that ticket type first.",
  surchargeRuleInvalid: 'Please choose one of your active surcharge rules.',

  // Donations at checkout (our own wording; the spec is silent, see docs/decisions.md "Donations at checkout")
  donationNoCharity: 'This event does not collect donations.',
  donationCharityChanged: 'The charity for this event has changed. Please review your donation.',

  // Order detail actions (reports-payouts-checkout §5 Actions, §8)
  reasonRequired: 'Reason is required.',
  voidIdsMissing: 'Failed to Void Ticket - Ticket ID or Order UID is missing.',
  voidFailed: 'Failed to Void Ticket',
  ticketVoided: 'Ticket Voided',
  orderViewIdsMissing: 'Order view action failed - Event ID and Tenant ID not found.',
  requestSubmitted: 'Request submitted successful',
  // Order actions and refunds: our own wording (spec silent; docs/decisions.md "Order management and refunds")
  ticketUnvoided: 'Ticket Unvoided',
  unvoidSoldOut: 'This ticket cannot be restored: its ticket type or the event is sold out.',
  ticketAlreadyRefunded: 'This ticket was refunded and cannot be restored.',
  unvoidOrderRefunded: 'This order has been refunded in full: its tickets cannot be restored.',
  ticketNotInOrder: 'This ticket is not part of the order.',
  refundFreeOrder: 'This order was free: there is nothing to refund.',
  refundNotPaid: 'Only a paid order can be refunded.',
  refundAmountInvalid: 'The refund amount must be a whole number of cents, more than 0.',
  refundExceedsPaid: 'The refund is more than what is left to refund on this order.',
  refundExceedsTickets: 'The refund is more than what the chosen tickets were paid for. Refund an amount instead to give back more.',
  refundNothingLeft: 'This order has been refunded in full.',
  refundModeRequired: 'Choose a full refund, an amount, or the tickets to refund.',
  refundTicketsVoided: 'A chosen ticket is already voided or refunded.',
  refundFailed: 'The payment provider refused the refund.',
  refundIssued: 'Refund Issued',
  refundSubmitted: 'Refund submitted.',
  cancelMessageTooLong: 'The message to buyers can be at most 2,000 characters.',

  // Payouts (reports-payouts-checkout §5, §8)
  noOrderSelected: 'No Order Selected',
  selectOrderToTransfer: 'Please select at least one order to transfer payout',
  holdPayoutFailed: 'Failed to Hold Payout.',
  holdReleaseFailed: 'Failed to hold/release payout',
  transferFailed: 'Failed to transfer payout',
  gatewayDestinationNotFound: 'gateway destination not found',
  contactTenantOwner: ' Please contact the tenant owner to setup stripe account.',
  payoutReleased: 'Payout Released',
  payoutHeld: 'Payout Held',
  errorTitle: 'Error',
  // Payouts: our own wording (spec silent; docs/decisions.md "Payouts")
  payoutNotFound: 'This payout does not exist.',
  payoutTenantFacilitated: "Tenant-facilitated payouts cannot be held or paid by the platform: the tenant's own account took the money.",
  payoutAlreadyPaid: 'This order has already been paid out.',
  payoutNotPaidOrder: 'This order has no payment to pay out.',
  payoutOnHold: 'This order is on hold.',
  payoutNotAvailable: 'The balance of this order is not available yet.',
  payoutInProgress: 'A payout of this order is in progress.',
  payoutRefundLine: "A refund is taken from the tenant's next payout; it is not paid out on its own.",
  payoutNothingToTransfer: 'Nothing to transfer: refunds since the last payout make this total zero or less.',
  payoutOrderUnknown: 'No paid order has this Order ID.',
  payoutHoldMessageLong: 'The message can be at most 500 characters.',
  reportRangeReversed: 'The range must end on or after its start.',
  // Door check-in (issue 11): our own wording (docs/decisions.md "Door check-in")
  checkinCodeOrTicket: 'Send either the scanned code or a ticket id (one of them, not both).',
  checkinCodeTooLong: 'The scanned code is too long to be a ticket.',
  checkinTicketIdInvalid: 'A ticket id is at most 100 characters.',
  checkinClientScanId: 'clientScanId must be a UUID.',
  checkinDeviceId: 'deviceId must be 1 to 100 characters.',
  checkinScannedAt: 'scannedAt must be a date and time (ISO 8601, with its time zone).',
  checkinSyncSize: 'Send between 1 and 500 scans at a time.',
  checkinSearchShort: 'Type at least 2 characters to search.',
  checkinSearchLong: 'Search with at most 100 characters.',
  checkinScanIdReused: 'This clientScanId was already used for a different scan.',
  checkinUndoNotAdmission: 'Only an admission can be undone.',
  checkinUndoAlreadyUndone: 'This admission was already undone.',
  checkinUndoAdmittedSince: 'This ticket was admitted again since; undo that admission instead.',
  checkinScannedBy: 'scannedBy must be the id of the person who scanned (a UUID).',
  checkinScannedByOther: 'Offline scans can only be sent by the person who made them: they are sent when that person signs in on this device again.',
  // Ticket transfers (issue 24; ours: the spec has none; docs/transfers.md)
  transferNameRequired: 'Enter the name of the person you are giving the ticket to.',
  transferNameTooLong: 'The name can be at most 100 characters.',
  transferEmailRequired: 'Enter their e-mail address.',
  transferTicketId: 'Choose the ticket to transfer.',
  transferSamePerson: 'This ticket is already theirs: enter the name and e-mail address of the person you are giving it to.',
  transferTicketUsed: 'This ticket has been used at the door, so it can no longer be transferred.',
  transferTicketVoided: 'This ticket has been voided, so it cannot be transferred.',
  transferTicketRefunded: 'This ticket has been refunded, so it cannot be transferred.',
  transferAlreadyTransferred: 'This ticket has already been transferred to someone else.',
  transferEventCancelled: 'This event has been cancelled: its tickets can no longer be transferred.',
  transferEventOver: 'This event is over: its tickets can no longer be transferred.',
  transfersOff: 'The organiser does not allow tickets for this event to be transferred.',
  transferOrderNotComplete: 'Only the tickets of a completed order can be transferred.',
  transferDone: 'Done: the ticket is theirs now. We have e-mailed them their own link and code.',
  checkinTransferred: 'This ticket was transferred to someone else and its old code no longer admits. Do not admit.',

  // Waiting list (issue 24; ours: the spec has none; the attendee's messages are in M_SITE)
  waitlistOfferMinutes: 'Give between 5 minutes and 7 days (10080 minutes) to claim an offer.',
  waitlistRemoved: 'Removed from the waiting list.',
  waitlistOffered: 'Offer sent.',
  // Waiting room (issue 13; ours: the spec has none)
  waitingRoomRequired: 'This sale has a waiting room: wait for your turn in line, then try again.',
  waitingRoomOpensAt: 'Enter the date and time the line opens.',
  waitingRoomRate: 'Admit between 1 and 10,000 people per minute.',
  // Messages to attendees (issue 15; ours, the spec has no such page; docs/decisions.md "Messages to attendees")
  attendeeMessageSubjectMax: 'Subject can be at most 200 characters.',
  attendeeMessageBodyMax: 'Message is too long.',
  attendeeMessageTicketTypes: 'Choose at least one ticket type.',
  attendeeMessageTicketTypeUnknown: 'A chosen ticket type is not in this event.',
  attendeeMessageNoRecipients: 'Nobody would receive this message: no paid ticket holder matches the recipients chosen.',
  attendeeMessageQueued: 'Your message is being sent.',
  attendeeMessageInProgress: 'A message to this event’s attendees is still being sent. Send the next one when it has gone out.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid. Use the link from the most recent e-mail.',
  unsubscribed: 'You will no longer receive messages from this organiser.',
  resubscribed: 'You will receive messages from this organiser again.',
  // API keys and the audit log (issue 25; ours)
  apiKeyInvalid: 'This API key is not valid: it may have been revoked or have expired.',
  apiKeyNoScope: 'This API key may not do this. Ask a tenant admin for a key with the right scope.',
  apiKeyNotHere: 'API keys cannot do this. Sign in to the console instead.',
  apiKeyRateLimited: 'Too many requests with this API key. Please wait and try again.',
  // Issue 26: the operator's endpoints (ours)
  metricsTokenRequired: 'The metrics need the metrics token: send Authorization: Bearer <METRICS_TOKEN>.',
  readyDraining: 'The node is shutting down: it finishes its requests and takes no new ones.',
  readyDatabaseDown: 'The database does not answer.',
  readyDatabaseSlow: (ms: number) => `The database did not answer within ${ms} ms.`,
  readyMigrationsPending: (applied: number, shipped: number) =>
    `Migrations are not all applied: ${applied} of ${shipped}. Run the server's migrations (a node migrates as it starts).`,
  apiKeyExpiryPast: 'The expiry must be in the future.',
  apiKeyCreated: 'API key created. Copy it now: it will not be shown again.',
  apiKeyRevoked: 'API key revoked.',
  auditEntryImmutable: 'Audit log entries cannot be changed or deleted.',
  // Issue 28: event series.
  seriesDateInvalid: 'Enter a date as YYYY-MM-DD.',
  seriesTimeInvalid: 'Enter a time as HH:MM (24-hour).',
  seriesWeekdaysRequired: 'Choose at least one day of the week.',
  seriesRuleEnd: 'A weekly rule needs either an end date or a number of dates (one of them).',
  seriesEndBeforeStart: 'The end must be after the start.',
  seriesSlotLength: 'The slot length must be at least 1 minute and fit between the start and end times.',
  seriesNoDates: 'The series has no dates: add dates or a weekly rule.',
  seriesTooManyDates: 'A series can have at most 366 dates (slots included). Shorten the rule or use longer slots.',
  seriesTicketTypesRequired: 'Add at least one ticket type.',
  seriesDateTaken: 'The series already has a date at that time.',
  seriesNotADate: 'This event is not a date of this series.',
  seriesCreated: 'Series created.',
  seriesDateMoved: 'Date moved. Its buyers are being told the new time.',
  seriesDateCancelled: 'Date cancelled. Its buyers are being refunded and told.',
  seriesDateAdded: 'Date added.',
  seriesExportTooLarge: 'This series has too many orders to export at once. Export each date from its own report.',
  seriesTicketTypeSaved: 'Ticket type saved for the series.',
} as const;

export type MessageKey = keyof typeof M;

/**
 * Deleting a ticket type that discount codes apply to is refused, naming the codes (our wording,
 * like M.ticketTypeLinked; see docs/decisions.md "Deleting a ticket type a discount code applies to").
 */
export function ticketTypeInDiscountCodes(codes: readonly string[]): string {
  const shown = codes.slice(0, 5);
  const more = codes.length - shown.length;
  const names = more > 0 ? [...shown, `${more} more`] : shown;
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  return codes.length === 1
    ? `Discount code ${list} applies to this ticket type. Change or delete that code first.`
    : `Discount codes ${list} apply to this ticket type. Change or delete those codes first.`;
}

/** A sales chart asked for more days than it draws (ours; the spec has no chart limit). */
export function reportRangeTooLong(days: number): string {
  return `The range can be at most ${days} days.`;
}

/**
 * A waiting-room admission is good for this many orders (placed and not given back), its own
 * visitor's (ours; docs/decisions.md "Issue 21.1: a waiting-room admission is one visitor's").
 */
export const WAITING_ROOM_ADMISSION_ORDERS = 2;
/** The answer to PLACE ORDER once the admission's orders are placed. */
export const waitingRoomOrderLimit = `You have placed ${WAITING_ROOM_ADMISSION_ORDERS} orders with this turn in line, the most one turn allows.`;

/**
 * Resending an order's tickets from the console (ours; docs/decisions.md "Issue 21.3: resending
 * tickets"): at most so many resends of one order, and by one member of the tenant, in any hour.
 */
export const RESENDS_PER_ORDER_PER_HOUR = 5;
export const RESENDS_PER_MEMBER_PER_HOUR = 30;

const inMinutes = (minutes: number) => `${minutes} minute${minutes === 1 ? '' : 's'}`;

/** The answer once an order's tickets were resent RESENDS_PER_ORDER_PER_HOUR times in the last hour. */
export function resendOrderLimit(minutes: number): string {
  return `This order’s tickets were sent ${RESENDS_PER_ORDER_PER_HOUR} times in the last hour. You can send them again in ${inMinutes(minutes)}.`;
}

/** The answer once a member resent tickets RESENDS_PER_MEMBER_PER_HOUR times in the last hour. */
export function resendMemberLimit(minutes: number): string {
  return `You have resent tickets ${RESENDS_PER_MEMBER_PER_HOUR} times in the last hour. You can resend again in ${inMinutes(minutes)}.`;
}

/** Messages to attendees: at most so many per event in 24 hours (ours; docs/decisions.md "A send limit on messages to attendees"). */
export const ATTENDEE_MESSAGES_PER_DAY = 10;

/** The answer once the event's messages of the last 24 hours reach the limit; `nextAt` is already formatted for people. */
export function attendeeMessageDailyLimit(nextAt: string): string {
  return `You can send at most ${ATTENDEE_MESSAGES_PER_DAY} messages to this event’s attendees in 24 hours. The next one can be sent after ${nextAt}.`;
}

// ---- the box office (issue 23, docs/box-office.md) ------------------------------------------
export const BOX_OFFICE_MESSAGES = {
  notAtBoxOffice: 'This ticket type is sold online only, not at the box office.',
  cashShort: 'The cash tendered is less than the total.',
  cashRequired: 'Enter the cash tendered.',
  referenceRequired: "Enter the card terminal's reference for this payment.",
  keyReused: 'This sale was already made with other tickets. Start a new sale.',
  offline: 'No network: nothing can be sold until the connection is back.',
  saleFailed: 'The sale did not go through',
} as const;

/** Comps past the event's limit: the limit, and how many are left. */
export function complimentaryLimitMessage(limit: number, left: number): string {
  return `This event allows ${limit} complimentary ticket${limit === 1 ? '' : 's'}: ${left === 0 ? 'none are' : `only ${left} ${left === 1 ? 'is' : 'are'}`} left.`;
}
