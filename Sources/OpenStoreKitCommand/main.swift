// The openstorekit command.
